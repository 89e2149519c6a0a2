/**
 * Word wrap to a known width, so a scrolling pane can count its rows exactly: Ink wraps for
 * display, but a window over wrapped text must know how many terminal rows each line takes.
 * Continuation rows are indented under the first (a hanging indent), long words are cut.
 */
export function wrapText(text: string, width: number, hanging = 2, firstWidth = width): string[] {
  const full = Math.max(10, width);
  // The first row may be shorter (a label precedes it on screen).
  let room = Math.max(1, Math.min(full, firstWidth));
  const lead = /^\s*/.exec(text)?.[0] ?? '';
  const pad = ' '.repeat(Math.min(lead.length + hanging, Math.floor(full / 2)));
  const rows: string[] = [];
  let row = lead;
  const push = () => {
    rows.push(row.trimEnd());
    row = pad;
    room = full;
  };
  for (const word of text.slice(lead.length).split(/\s+/).filter(Boolean)) {
    let w = word;
    const sep = row.trim() === '' ? '' : ' ';
    if (row.length + sep.length + w.length <= room) {
      row += sep + w;
      continue;
    }
    if (row.trim() !== '') push();
    while (row.length + w.length > room) {
      const take = room - row.length;
      row += w.slice(0, take);
      w = w.slice(take);
      push();
    }
    row += w;
  }
  if (row.trim() !== '' || rows.length === 0) rows.push(row.trimEnd());
  return rows;
}
