import { describe, expect, it } from 'vitest';
import { changelogSinceSerialCall, parseJournal, parseSimpleIndex } from './feed.js';

/**
 * The journal rows of research/registry-feeds.md §1.2 (pypi/warehouse xml-rpc.md@6b62157124ab),
 * as Python's xmlrpc.client marshals them (what warehouse answers), with a project-wide row's nil version.
 */
const rowXml = (values: string[]) => `<value><array><data>\n${values.join('\n')}\n</data></array></value>`;
const s = (v: string) => `<value><string>${v}</string></value>`;
const i = (v: number) => `<value><int>${v}</int></value>`;
const JOURNAL = `<?xml version='1.0'?>
<methodResponse>
<params>
<param>
<value><array><data>
${rowXml([s('openllm'), s('0.4.33.dev3'), i(1701280908), s('new release'), i(4601225)])}
${rowXml([s('py-pcapplusplus'), s('1.0.0'), i(1725534675), s('remove release'), i(24891358)])}
${rowXml([s('gone-project'), '<value><nil/></value>', i(1725534699), s('remove project'), i(24891359)])}
${rowXml([s('a&amp;b'), s('1.0'), i(1725534700), s('add py3 file a_b-1.0-py3-none-any.whl'), i(24891360)])}
</data></array></value>
</param>
</params>
</methodResponse>
`;

describe('the PyPI journal over XML-RPC', () => {
  it('reads each row as name, version, timestamp, action and serial', () => {
    expect(parseJournal(JOURNAL)).toEqual([
      { name: 'openllm', version: '0.4.33.dev3', timestamp: 1701280908, action: 'new release', serial: 4601225 },
      { name: 'py-pcapplusplus', version: '1.0.0', timestamp: 1725534675, action: 'remove release', serial: 24891358 },
      { name: 'gone-project', version: null, timestamp: 1725534699, action: 'remove project', serial: 24891359 },
      {
        name: 'a&b',
        version: '1.0',
        timestamp: 1725534700,
        action: 'add py3 file a_b-1.0-py3-none-any.whl',
        serial: 24891360,
      },
    ]);
  });

  it('reads an empty journal, and says what an XML-RPC fault said', () => {
    expect(
      parseJournal(
        `<?xml version='1.0'?><methodResponse><params><param><value><array><data>\n</data></array></value></param></params></methodResponse>`,
      ),
    ).toEqual([]);
    const fault = parseJournal(
      `<?xml version='1.0'?><methodResponse><fault><value><struct><member><name>faultCode</name><value><int>-32500</int></value></member><member><name>faultString</name><value><string>HTTPTooManyRequests: The action could not be performed because there were too many requests by the client. Limit may reset in 1 seconds.</string></value></member></struct></value></fault></methodResponse>`,
    );
    expect(fault).toMatch(/^an XML-RPC fault: .*TooManyRequests/);
  });

  it('asks for the rows after a serial', () => {
    expect(changelogSinceSerialCall(24891358)).toContain('<methodName>changelog_since_serial</methodName>');
    expect(changelogSinceSerialCall(24891358)).toContain('<int>24891358</int>');
  });
});

describe('the Simple index JSON', () => {
  it('reads every project with its serial (pypi/warehouse docs/user/api/index-api.md)', () => {
    const page = {
      meta: { '_last-serial': 24888689, 'api-version': '1.4' },
      projects: [
        { '_last-serial': 3075854, name: '0' },
        { '_last-serial': 24888501, name: 'requests' },
      ],
    };
    expect(parseSimpleIndex(page)).toEqual({
      last_serial: 24888689,
      projects: [
        ['0', 3075854],
        ['requests', 24888501],
      ],
    });
    expect(parseSimpleIndex({ projects: [] })).toMatch(/_last-serial/);
  });
});
