import { describe, expect, it } from 'vitest';
import { RequestHistogram } from '../src/cli/request-histogram.js';
import { parsePrometheusText, total } from './support/prometheus-text.js';

describe('the request histogram', () => {
  it('writes nothing before the first request', () => {
    expect(new RequestHistogram().text()).toBe('');
  });

  it('writes cumulative buckets, sum and count per label set, in the text format', () => {
    const h = new RequestHistogram();
    for (const seconds of [0.0001, 0.0005, 0.003, 0.2, 30])
      h.answered('/api/v1/entity/:owner/:repo', 'GET', 200, seconds);
    h.answered('/api/v1/entity/:owner/:repo', 'GET', 401, 0.002);
    const families = parsePrometheusText(h.text());
    const family = families.get('tended_http_request_duration_seconds')!;
    expect(family.type).toBe('histogram');
    const ok = { route: '/api/v1/entity/:owner/:repo', method: 'GET', status: '200' };
    const bucket = (le: string) => total(families, 'tended_http_request_duration_seconds_bucket', { ...ok, le });
    // A bound holds what is at most it: 0.0005 falls in le="0.0005".
    expect([bucket('0.0005'), bucket('0.001'), bucket('0.005'), bucket('0.25'), bucket('10'), bucket('+Inf')]).toEqual([
      2, 2, 3, 4, 4, 5,
    ]);
    expect(total(families, 'tended_http_request_duration_seconds_count', ok)).toBe(5);
    expect(total(families, 'tended_http_request_duration_seconds_sum', ok)).toBeCloseTo(30.2036, 6);
    expect(total(families, 'tended_http_request_duration_seconds_count', { status: '401' })).toBe(1);
  });

  it('escapes a label value as the format asks', () => {
    const h = new RequestHistogram();
    h.answered('/odd/"quoted"\\back\nline', 'GET', 404, 0.001);
    const families = parsePrometheusText(h.text());
    expect(total(families, 'tended_http_request_duration_seconds_count', { route: '/odd/"quoted"\\back\nline' })).toBe(
      1,
    );
  });
});
