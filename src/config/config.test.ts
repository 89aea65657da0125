import { describe, expect, it } from 'vitest';
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
  });

  it('takes a comma list of registries, a sweep length and a feed base URL', () => {
    const { follow } = loadConfig({
      TENDED_FOLLOW: 'npm, PyPI,npm,',
      TENDED_SWEEP_DAYS: '14',
      TENDED_FEED_NPM_URL: 'http://127.0.0.1:9000/replicate/',
    });
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
    [{ TENDED_SWEEP_DAYS: '0' }, /TENDED_SWEEP_DAYS must be at least 1/],
    [{ TENDED_SWEEP_DAYS: '365' }, /TENDED_SWEEP_DAYS must be at most 180/],
    [{ TENDED_SWEEP_DAYS: 'monthly' }, /TENDED_SWEEP_DAYS/],
    [{ TENDED_FEED_PYPI_URL: 'ftp://mirror' }, /TENDED_FEED_PYPI_URL/],
  ])('refuses %o with a sentence naming the variable', (env, why) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(why);
  });
});
