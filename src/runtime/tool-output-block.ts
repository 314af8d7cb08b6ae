/**
 * The block a tool result is shown to the model in: `<tool_output name="…">\n…\n</tool_output>`.
 * What is inside is untrusted (a tool may return what a customer or a third party wrote), so it
 * must not be able to end the block early or open a new one. Anything in the output that reads as
 * the block's own tag — `<` then optional spaces, an optional `/`, and `tool_output` in any case —
 * has its `<` written `&lt;`; and so that the encoding is exactly reversible, an output that
 * already spells such a tag with `&lt;` (or `&amp;lt;`, …) gets one more `amp;`. Every other
 * output is shown unchanged. The name is an attribute: `&`, `"`, `<` and `>` are escaped in it.
 */

// What a reader could take for the start of the block's own opening or closing tag. The tag name
// matches in any case; the entities only in lower case, which is all the encoder writes.
const NAME = [...'tool_output'].map((c) => (c === '_' ? c : `[${c}${c.toUpperCase()}]`)).join('');
const TAG = String.raw`(?=\s*\/?\s*${NAME})`;
const ENCODE = new RegExp(String.raw`<${TAG}|&((?:amp;)*)lt;${TAG}`, 'g');
const DECODE = new RegExp(String.raw`&lt;${TAG}|&amp;((?:amp;)*)lt;${TAG}`, 'g');
const WRAPPED = /^<tool_output name="([^"]*)">\n([\s\S]*)\n<\/tool_output>$/;

const ATTRIBUTE: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };
const ATTRIBUTE_BACK: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&lt;': '<', '&gt;': '>' };

/** The output with every look-alike of the block's tags neutralised (see the module comment). */
export function encodeToolOutput(output: string): string {
  return output.replace(ENCODE, (match, amps: string | undefined) => (match.startsWith('<') ? '&lt;' : `&amp;${amps ?? ''}lt;`));
}

/** The inverse of {@link encodeToolOutput}. */
export function decodeToolOutput(encoded: string): string {
  return encoded.replace(DECODE, (match, amps: string | undefined) => (amps === undefined ? '<' : `&${amps}lt;`));
}

/** The tool result as the model sees it: delimited, with the output and the name encoded. */
export function wrapToolOutput(name: string, output: string): string {
  const attribute = name.replace(/[&"<>]/g, (c) => ATTRIBUTE[c]!);
  return `<tool_output name="${attribute}">\n${encodeToolOutput(output)}\n</tool_output>`;
}

/** A tool result as the tool wrote it, from what {@link wrapToolOutput} made (other text is returned as it is). */
export function unwrapToolOutput(content: string): string {
  const wrapped = WRAPPED.exec(content);
  return wrapped ? decodeToolOutput(wrapped[2]!) : content;
}

/** The tool name inside a wrapped result, or null. */
export function wrappedToolName(content: string): string | null {
  const wrapped = WRAPPED.exec(content);
  return wrapped ? wrapped[1]!.replace(/&(?:amp|quot|lt|gt);/g, (e) => ATTRIBUTE_BACK[e]!) : null;
}
