// What a terminal shows after a transcript of output: enough of a VT100 to replay what agents writes
// (text, CR, LF, cursor up, erase below, erase line, colours ignored), so that a test can check the
// screen a person sees rather than the bytes: replies intact, status lines gone, nothing overwritten.

/** The rows of the screen after `transcript`, at `cols` columns, trailing blanks trimmed. */
export function render(transcript: string, cols: number): { rows: string[]; wrapped: number } {
  const rows: string[][] = [[]];
  let r = 0;
  let c = 0;
  let wrapped = 0;
  const row = (i: number) => (rows[i] ??= []);
  for (let i = 0; i < transcript.length; i += 1) {
    const ch = transcript[i]!;
    if (ch === '\u001b') {
      // eslint-disable-next-line no-control-regex -- escape sequences are what is parsed
      const m = /^\u001b\[([?0-9;]*)([A-Za-z])/.exec(transcript.slice(i));
      if (m === null) continue;
      i += m[0].length - 1;
      const n = Number(m[1] || '1');
      if (m[2] === 'A') r = Math.max(0, r - n);
      else if (m[2] === 'J') {
        row(r).length = Math.min(row(r).length, c);
        rows.length = r + 1;
      } else if (m[2] === 'K') rows[r] = m[1] === '2' ? [] : row(r).slice(0, c);
      else if (m[2] === 'G') c = n - 1;
      continue;
    }
    if (ch === '\r') c = 0;
    else if (ch === '\n') {
      r += 1;
      row(r);
    } else if (ch >= ' ') {
      if (c >= cols) {
        // Autowrap: the character goes to the start of the next row.
        wrapped += 1;
        r += 1;
        c = 0;
      }
      const line = row(r);
      while (line.length < c) line.push(' ');
      line[c] = ch;
      c += 1;
    }
  }
  return { rows: rows.map((l) => (l ?? []).join('').trimEnd()), wrapped };
}
