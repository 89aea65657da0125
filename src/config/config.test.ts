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
