/** One regular file in POSIX ustar form (512-byte header, content padded to 512): what the crates.io dump is made of. */
export function tarFile(name: string, content: string, mtimeMs: number): Buffer {
  const body = Buffer.from(content, 'utf8');
  const header = Buffer.alloc(512);
  const put = (offset: number, length: number, value: string) => header.write(value, offset, length, 'ascii');
  const octal = (n: number, length: number) => n.toString(8).padStart(length - 1, '0');
  put(0, 100, name);
  put(100, 8, octal(0o644, 8));
  put(108, 8, octal(0, 8));
  put(116, 8, octal(0, 8));
  put(124, 12, octal(body.length, 12));
  put(136, 12, octal(Math.floor(mtimeMs / 1000), 12));
  put(148, 8, '        ');
  put(156, 1, '0');
  put(257, 6, 'ustar');
  put(263, 2, '00');
  let sum = 0;
  for (const byte of header) sum += byte;
  put(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  const padding = (512 - (body.length % 512)) % 512;
  return Buffer.concat([header, body, Buffer.alloc(padding)]);
}
