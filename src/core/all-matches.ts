/**
 * Every match of a global pattern in a text, as `String.prototype.matchAll` finds them (an empty
 * match moves on by one), without the copy of the pattern that `matchAll` makes on every call —
 * the decider's hot paths run dozens of patterns on every clause. The pattern's `lastIndex` is left
 * at 0, so a shared pattern can be used again by anyone.
 */
export function allMatches(re: RegExp, text: string): RegExpExecArray[] {
  if (!re.global) throw new Error(`allMatches needs a global pattern, not /${re.source}/${re.flags}`);
  const found: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    found.push(m);
    if (m[0] === '') re.lastIndex++;
  }
  re.lastIndex = 0;
  return found;
}
