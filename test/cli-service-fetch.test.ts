import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TENDED_MAIN } from './support/tended-bin.js';

/**
 * `check --url` and `verify --url` at a port that drops each connection at once: Node 20's fetch
 * can leave its promise pending for good, and a CLI process with nothing else pending then exited
 * 13 (an unsettled top-level await) with nothing on stderr. Each run must end in a sentence.
 */
const SERVICE_FETCH = pathToFileURL(join(dirname(TENDED_MAIN), 'cli', 'service-fetch.js')).href;
const dropper = createServer((socket) => socket.destroy());
let url: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(dropper.address() as AddressInfo).port}/api/v1/manifest`;
});
afterAll(() => new Promise((resolve) => dropper.close(resolve)));

it('a service that drops the connection at once gets a sentence, never a silent exit 13', async () => {
  const script = `import { fetchService } from ${JSON.stringify(SERVICE_FETCH)};
try { await fetchService(${JSON.stringify(url)}, { method: 'POST', body: '{}' }, 1500, 'checked'); console.log('answered'); }
catch (error) { console.log(error.message); }`;
  for (let run = 0; run < 6; run++) {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    expect(stdout).toMatch(
      /^could not (reach|speak HTTP to) http:\/\/127\.0\.0\.1:\d+\/api\/v1\/manifest: .*Nothing was checked\.\n$/,
    );
  }
});
