import { describe, expect, it } from 'vitest';
import { readGoMod } from './go-mod.js';

describe('go.mod upkeep facts', () => {
  it('reads a Deprecated: paragraph right above the module directive', () => {
    const text =
      '// Package x does things.\n//\n// Deprecated: use example.com/mod/v2 instead.\nmodule example.com/mod\n\ngo 1.21\n';
    expect(readGoMod(text)).toEqual({ deprecated: 'use example.com/mod/v2 instead.', retracted: [] });
  });

  it('reads a Deprecated: comment trailing the module directive', () => {
    expect(readGoMod('module example.com/mod // Deprecated: gone to v2\n').deprecated).toBe('gone to v2');
  });

  it('ignores a deprecation that is not a paragraph start, or not right above the directive', () => {
    expect(readGoMod('// This is not Deprecated: really\nmodule example.com/m\n').deprecated).toBeNull();
    expect(readGoMod('// Deprecated: detached\n\nmodule example.com/m\n').deprecated).toBeNull();
    expect(readGoMod('// deprecated: lower case\nmodule example.com/m\n').deprecated).toBeNull();
  });

  it('lists retractions, single, ranged and in blocks, without their comments', () => {
    const text = [
      'module example.com/m',
      'retract v1.0.0 // published too early',
      'retract [v1.1.0, v1.1.9]',
      'retract (',
      '  // a bad tag',
      '  v1.2.0',
      ')',
    ].join('\n');
    expect(readGoMod(text).retracted).toEqual(['v1.0.0', '[v1.1.0, v1.1.9]', 'v1.2.0']);
  });
});
