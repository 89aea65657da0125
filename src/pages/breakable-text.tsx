/**
 * Text that may hold long dotted or slashed tokens (`String.prototype.padStart()`, a URL, a module
 * path), with a line-break opportunity after each dot, slash and the like: a narrow column then
 * wraps it between its parts ("String." / "prototype.") rather than at whatever letter the line
 * ends on. Nothing is added to the text itself: <wbr> copies as nothing.
 */
export function BreakableText(props: { text: string }) {
  // A break after the punctuation, only where a word character follows: "padStart() instead" stays.
  const parts = props.text.split(/(?<=[./_:@?&=#])(?=\w)/);
  return (
    <>
      {parts.map((part, i) =>
        i === 0 ? (
          part
        ) : (
          <>
            <wbr />
            {part}
          </>
        ),
      )}
    </>
  );
}
