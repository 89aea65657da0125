import { describe, expect, it } from 'vitest';
import { cosignerFromSeed } from '../notary/cosignature.js';
import { DEFAULT_BUDGETS } from '../upstreams/http/budget-limits.js';
import { ANSWER_CACHE_BYTES_DEFAULT, ConfigError, loadConfig } from './config.js';

describe('TENDED_ANSWER_CACHE_BYTES', () => {
  it('defaults to 64 MB and takes a whole number of bytes', () => {
    expect(loadConfig({}).answerCacheBytes).toBe(ANSWER_CACHE_BYTES_DEFAULT);
    expect(ANSWER_CACHE_BYTES_DEFAULT).toBe(64 * 1024 * 1024);
    expect(loadConfig({ TENDED_ANSWER_CACHE_BYTES: '8388608' }).answerCacheBytes).toBe(8388608);
  });

  it.each(['1000', '12.5', 'lots', '-1'])('refuses %s with a sentence naming the variable', (value) => {
    expect(() => loadConfig({ TENDED_ANSWER_CACHE_BYTES: value })).toThrow(ConfigError);
    expect(() => loadConfig({ TENDED_ANSWER_CACHE_BYTES: value })).toThrow(/TENDED_ANSWER_CACHE_BYTES/);
  });
});

describe('TENDED_WEBHOOK_ALLOW_PRIVATE', () => {
  it('is off by default (webhooks to public addresses only) and takes on or off, nothing else', () => {
    expect(loadConfig({}).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ TENDED_WEBHOOK_ALLOW_PRIVATE: 'on' }).webhookAllowPrivate).toBe(true);
    expect(() => loadConfig({ TENDED_WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/TENDED_WEBHOOK_ALLOW_PRIVATE/);
  });
});

describe('TENDED_DISCOVERY_SHARE', () => {
  it('defaults to 1,000 names a client a day, never more than the daily bound, and takes a whole number', () => {
    expect(loadConfig({}).discovery).toEqual({ enabled: true, dailyCap: 100_000, clientShare: 1_000 });
    expect(loadConfig({ TENDED_DISCOVERY_DAILY: '300' }).discovery.clientShare).toBe(300);
    expect(loadConfig({ TENDED_DISCOVERY_SHARE: '50' }).discovery.clientShare).toBe(50);
  });

  it.each([
    [{ TENDED_DISCOVERY_SHARE: '0' }, /at least 1/],
    [{ TENDED_DISCOVERY_SHARE: '2.5' }, /whole number/],
    [{ TENDED_DISCOVERY_SHARE: 'many' }, /TENDED_DISCOVERY_SHARE/],
    [{ TENDED_DISCOVERY_SHARE: '5000', TENDED_DISCOVERY_DAILY: '1000' }, /spend the whole day/],
  ])('refuses %o with a sentence naming the variable', (env, why) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/TENDED_DISCOVERY_SHARE/);
    expect(() => loadConfig(env)).toThrow(why);
  });
});

describe('TENDED_METRICS_ADDRESS', () => {
  it('is off by default and takes host:port or [v6]:port, never the service’s own address', () => {
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ TENDED_METRICS_ADDRESS: '127.0.0.1:9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ TENDED_METRICS_ADDRESS: '[::1]:9464' }).metrics).toEqual({ host: '::1', port: 9464 });
    expect(loadConfig({ TENDED_METRICS_ADDRESS: 'metrics.internal:0' }).metrics).toEqual({
      host: 'metrics.internal',
      port: 0,
    });
    for (const bad of ['9464', '127.0.0.1', '127.0.0.1:99999', 'http://127.0.0.1:9464', '::1:9464'])
      expect(() => loadConfig({ TENDED_METRICS_ADDRESS: bad }), bad).toThrow(/TENDED_METRICS_ADDRESS/);
    expect(() => loadConfig({ TENDED_METRICS_ADDRESS: '127.0.0.1:8080' })).toThrow(/the service's own address/);
  });
});

describe('TENDED_FOLLOW, TENDED_SWEEP_DAYS and the feeds', () => {
  it('follows nothing by default, sweeps every 30 days, and reads each feed from its real host', () => {
    const { follow } = loadConfig({});
    expect(follow.registries).toEqual([]);
    expect(follow.sweepDays).toBe(30);
    expect(follow.feeds).toEqual({
      npm: 'https://replicate.npmjs.com',
      pypi: 'https://pypi.org',
      cargo: 'https://static.crates.io',
      golang: 'https://index.golang.org',
      nuget: 'https://api.nuget.org',
      gem: 'https://rubygems.org',
      composer: 'https://packagist.org',
    });
    expect(follow.osvExport).toBe('https://osv-vulnerabilities.storage.googleapis.com');
  });

  it('takes a comma list of registries, a sweep length and a feed base URL', () => {
    const { follow } = loadConfig({
      TENDED_FOLLOW: 'npm, PyPI,npm,',
      GITHUB_TOKEN: 'ghp_test',
      TENDED_SWEEP_DAYS: '14',
      TENDED_FEED_NPM_URL: 'http://127.0.0.1:9000/replicate/',
      TENDED_OSV_EXPORT_URL: 'http://127.0.0.1:9000/osvexport/',
    });
    expect(follow.osvExport).toBe('http://127.0.0.1:9000/osvexport');
    expect(follow.registries).toEqual(['npm', 'pypi']);
    expect(follow.sweepDays).toBe(14);
    expect(follow.feeds.npm).toBe('http://127.0.0.1:9000/replicate');
  });

  it.each([
    [
      { TENDED_FOLLOW: 'npm,maven' },
      /TENDED_FOLLOW: "maven" is not a registry Tended can follow; name some of npm, pypi/,
    ],
    [{ TENDED_FOLLOW: 'crates,go' }, /"crates", "go" are not registries/],
    [
      { TENDED_FOLLOW: 'npm' },
      /TENDED_FOLLOW is set but GITHUB_TOKEN is not: following reads every held GitHub repository in GraphQL batches/,
    ],
    [{ TENDED_SWEEP_DAYS: '0' }, /TENDED_SWEEP_DAYS must be at least 1/],
    [{ TENDED_SWEEP_DAYS: '365' }, /TENDED_SWEEP_DAYS must be at most 180/],
    [{ TENDED_SWEEP_DAYS: 'monthly' }, /TENDED_SWEEP_DAYS/],
    [{ TENDED_FEED_PYPI_URL: 'ftp://mirror' }, /TENDED_FEED_PYPI_URL/],
    [{ TENDED_OSV_EXPORT_URL: 'gs://osv-vulnerabilities' }, /TENDED_OSV_EXPORT_URL/],
  ])('refuses %o with a sentence naming the variable', (env, why) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(why);
  });
});

describe('TENDED_BUDGET_<UPSTREAM>', () => {
  it('defaults every host to its documented budget, GitHub lower without a token', () => {
    const budgets = loadConfig({ GITHUB_TOKEN: 'ghp_x' }).budgets;
    expect(budgets).toEqual(DEFAULT_BUDGETS);
    expect(budgets.crates).toEqual({ perSecond: 1, perDay: 50_000 });
    expect(budgets.github).toEqual({ perSecond: 10, perDay: 100_000 });
    // 60 requests an hour without a token: 1,440 a day at most.
    expect(loadConfig({}).budgets.github.perDay).toBeLessThan(1_440);
  });

  it('takes requests a second (a fraction too) and a day for any host', () => {
    const budgets = loadConfig({ TENDED_BUDGET_NPM: '3/90000', TENDED_BUDGET_CRATES_INDEX: '0.5/20000' }).budgets;
    expect(budgets.npm).toEqual({ perSecond: 3, perDay: 90_000 });
    expect(budgets.cratesIndex).toEqual({ perSecond: 0.5, perDay: 20_000 });
    expect(budgets.pypi).toEqual(DEFAULT_BUDGETS.pypi);
  });

  it.each([
    [{ TENDED_BUDGET_NPM: '5' }, /TENDED_BUDGET_NPM is requests a second and requests a day, e\.g\. 5\/300000/],
    [{ TENDED_BUDGET_PYPI: 'fast/lots' }, /TENDED_BUDGET_PYPI is requests a second and requests a day/],
    [{ TENDED_BUDGET_GITHUB: '0/1000' }, /TENDED_BUDGET_GITHUB: requests a second must be more than 0/],
    [{ TENDED_BUDGET_NUGET: '5000/1000' }, /TENDED_BUDGET_NUGET: requests a second must be .*at most 1000/],
    [{ TENDED_BUDGET_MAVEN: '2/0' }, /TENDED_BUDGET_MAVEN: requests a day must be at least 1/],
    [
      { TENDED_BUDGET_NPMJS: '5/100' },
      /TENDED_BUDGET_NPMJS: names no upstream; the budgets are TENDED_BUDGET_GITHUB, /,
    ],
  ])('refuses %o with a sentence naming the variable', (env, why) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(why);
  });

  it('names every bad variable at once, with the others', () => {
    expect(() => loadConfig({ PORT: '99999', TENDED_BUDGET_NPM: 'x', TENDED_BUDGET_X: '1/1' })).toThrow(
      /PORT: [^\n]*\n {2}TENDED_BUDGET_X: [^\n]*\n {2}TENDED_BUDGET_NPM: /,
    );
  });
});

describe('TENDED_WITNESSES and TENDED_WITNESS_PERIOD_S', () => {
  const one = cosignerFromSeed('w1.example/witness', new Uint8Array(32).fill(1)).vkey;
  const two = cosignerFromSeed('w2.example/witness', new Uint8Array(32).fill(2)).vkey;

  it('sends to no witness by default, once a minute when it does', () => {
    expect(loadConfig({}).witnesses).toEqual([]);
    expect(loadConfig({}).witnessPeriodMs).toBe(60_000);
  });

  it('takes "<vkey> <url>" entries, comma- or newline-separated, the URL without its trailing slash', () => {
    const config = loadConfig({
      TENDED_WITNESSES: `${one} https://w1.example/witness/,\n ${two}   http://127.0.0.1:9000\n`,
      TENDED_WITNESS_PERIOD_S: '10',
    });
    expect(config.witnesses).toEqual([
      { vkey: one, url: 'https://w1.example/witness' },
      { vkey: two, url: 'http://127.0.0.1:9000' },
    ]);
    expect(config.witnessPeriodMs).toBe(10_000);
  });

  it.each([
    [{ TENDED_WITNESSES: one }, /TENDED_WITNESSES: each witness is "<vkey> <url>"/],
    [{ TENDED_WITNESSES: `${one} ftp://w1.example` }, /TENDED_WITNESSES: ftp:\/\/w1.example must be an http\(s\) URL/],
    [{ TENDED_WITNESSES: `${one} https://w1.example/?x=1` }, /no query or fragment/],
    [{ TENDED_WITNESSES: `${one.replace('+', '+0')} https://w1.example` }, /is not a witness vkey/],
    // A log's note key (type 0x01) is not a witness's cosigner key (0x04).
    [
      { TENDED_WITNESSES: 'example.com/log+a8ef4f4c+ATpxlTtFtHgfDsKYsWyJ7Dd0GMSMEZDzhJdKF1y0RXT0 https://w1.example' },
      /type 0x04/,
    ],
    [
      { TENDED_WITNESSES: `${one} https://a.example, ${one} https://b.example` },
      /names the witness w1.example\/witness twice/,
    ],
    [{ TENDED_WITNESS_PERIOD_S: '0' }, /TENDED_WITNESS_PERIOD_S must be at least 1/],
    [{ TENDED_WITNESS_PERIOD_S: 'hourly' }, /TENDED_WITNESS_PERIOD_S/],
  ])('refuses %o with a sentence naming the variable', (env, why) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(why);
  });
});
