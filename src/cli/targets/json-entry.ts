// Adds and removes one property of a JSON/JSONC document as a text edit, so that every other byte of the
// user's file (comments, key order, spacing, trailing commas) stays as it was. jsonc-parser's `modify`
// with formatting options re-indents neighbouring values, and without them it writes the new value on one
// line; neither gives an exact inverse on uninstall. So the insertion is done here, and what was inserted
// is returned as a record that the uninstall uses to take out exactly those bytes again.
import { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';

/** What an insertion added, kept in the install manifest so uninstall can remove exactly that. */
export type Insertion =
  | {
      kind: 'chunk';
      /** The inserted text, which holds the property. */
      chunk: string;
      /** Where the property's key starts inside `chunk`. */
      keyOffset: number;
      /** A separating comma added right after the previous property. */
      addedComma: boolean;
    }
  | {
      kind: 'inner';
      /** The text that stood between the braces of the empty object before. */
      originalInner: string;
      /** The text between the braces after the insertion. */
      newInner: string;
    };

export class JsonEditError extends Error {}

function parse(text: string, file: string): Node {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || tree === undefined) {
    throw new JsonEditError(`${file} is not valid JSON: fix or remove it, then run the command again.`);
  }
  return tree;
}

function objectAt(tree: Node, path: string[], file: string): Node | undefined {
  const node = path.length === 0 ? tree : findNodeAtLocation(tree, path);
  if (node === undefined) return undefined;
  if (node.type !== 'object') {
    const where = path.length === 0 ? 'its top level' : `"${path.join('.')}"`;
    throw new JsonEditError(`${file}: ${where} is not a JSON object, so no entry can be added to it.`);
  }
  return node;
}

function propertyNode(container: Node, key: string): Node | undefined {
  return container.children?.find((p) => p.children?.[0]?.value === key);
}

/** The value stored under `path`, or undefined when absent. */
export function readValue(text: string, path: string[], file: string): unknown {
  const node = findNodeAtLocation(parse(text, file), path);
  return node === undefined ? undefined : getNodeValue(node);
}

/** True when `path` names an existing object. */
export function hasObject(text: string, path: string[], file: string): boolean {
  return objectAt(parse(text, file), path, file) !== undefined;
}

/** Number of properties of the object at `path` (0 when absent). */
export function propertyCount(text: string, path: string[], file: string): number {
  return objectAt(parse(text, file), path, file)?.children?.length ?? 0;
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}

function indentOfLine(text: string, pos: number): string {
  const start = lineStart(text, pos);
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

function detectUnit(text: string): string {
  // The first indented line that starts a property tells the file's indentation style.
  const m = /\n([ \t]+)["}\]]/.exec(text);
  const ws = m?.[1];
  if (ws === undefined) return '  ';
  if (ws.startsWith('\t')) return '\t';
  return ws.length > 0 && ws.length <= 8 ? ws : '  ';
}

function pretty(value: unknown, baseIndent: string, unit: string, eol: string): string {
  return JSON.stringify(value, null, unit).split('\n').join(eol + baseIndent);
}

/**
 * Inserts `"key": value` as the last property of the object at `containerPath`.
 * The caller makes sure the key is absent and the container exists.
 */
export function insertProperty(
  text: string,
  containerPath: string[],
  key: string,
  value: unknown,
  file: string,
): { text: string; insertion: Insertion } {
  const container = objectAt(parse(text, file), containerPath, file);
  if (container === undefined) throw new JsonEditError(`${file}: "${containerPath.join('.')}" is missing.`);
  if (propertyNode(container, key) !== undefined) throw new JsonEditError(`${file}: "${key}" is already there.`);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const unit = detectUnit(text);
  const open = container.offset;
  const close = container.offset + container.length - 1;
  const keyText = JSON.stringify(key) + ': ';
  const children = container.children ?? [];
  const last = children[children.length - 1];

  if (last === undefined) {
    const inner = text.slice(open + 1, close);
    const baseIndent = indentOfLine(text, open);
    const childIndent = baseIndent + unit;
    const body = keyText + pretty(value, childIndent, unit, eol);
    if (/^\s*$/.test(inner)) {
      const newInner = eol + childIndent + body + eol + baseIndent;
      return {
        text: text.slice(0, open + 1) + newInner + text.slice(close),
        insertion: { kind: 'inner', originalInner: inner, newInner },
      };
    }
    // An empty object that holds only comments: the property goes just before the closing brace.
    const chunk = eol + childIndent + body + eol + baseIndent;
    return {
      text: text.slice(0, close) + chunk + text.slice(close),
      insertion: { kind: 'chunk', chunk, keyOffset: eol.length + childIndent.length, addedComma: false },
    };
  }

  const lastEnd = last.offset + last.length;
  const ownLine = /^[ \t]*$/.test(text.slice(lineStart(text, last.offset), last.offset));
  const tail = /^[ \t]*(,)?[ \t]*(?:\/\/[^\r\n]*|\/\*[^\r\n]*?\*\/[ \t]*)?\r?\n/.exec(text.slice(lastEnd));
  if (ownLine && tail !== null) {
    // One property per line: the new one gets a line of its own after the last property's line, so a
    // comment at the end of that line stays where it was.
    const childIndent = indentOfLine(text, last.offset);
    const chunk = childIndent + keyText + pretty(value, childIndent, unit, eol) + eol;
    const at = lastEnd + tail[0].length;
    const addedComma = tail[1] === undefined;
    let out = text.slice(0, at) + chunk + text.slice(at);
    if (addedComma) out = out.slice(0, lastEnd) + ',' + out.slice(lastEnd);
    return { text: out, insertion: { kind: 'chunk', chunk, keyOffset: childIndent.length, addedComma } };
  }
  // Everything on one line: append inline.
  const chunk = ', ' + keyText + JSON.stringify(value);
  return {
    text: text.slice(0, lastEnd) + chunk + text.slice(lastEnd),
    insertion: { kind: 'chunk', chunk, keyOffset: 2, addedComma: false },
  };
}

/**
 * Removes the property `key` of the object at `containerPath`. With the record of its insertion, and the
 * text around it unchanged, the result is byte for byte the text before the insertion; otherwise the
 * property is removed structurally. Returns the text unchanged when the property is absent.
 */
export function removeProperty(
  text: string,
  containerPath: string[],
  key: string,
  file: string,
  insertion?: Insertion,
): { text: string; exact: boolean } {
  const container = objectAt(parse(text, file), containerPath, file);
  const prop = container === undefined ? undefined : propertyNode(container, key);
  if (container === undefined || prop === undefined) return { text, exact: true };
  const children = container.children ?? [];
  const index = children.indexOf(prop);

  if (insertion?.kind === 'inner') {
    const open = container.offset;
    const close = container.offset + container.length - 1;
    if (children.length === 1 && text.slice(open + 1, close) === insertion.newInner) {
      return { text: text.slice(0, open + 1) + insertion.originalInner + text.slice(close), exact: true };
    }
  } else if (insertion?.kind === 'chunk') {
    const start = prop.offset - insertion.keyOffset;
    const isLast = index === children.length - 1;
    if (start >= 0 && text.startsWith(insertion.chunk, start) && (!insertion.addedComma || isLast)) {
      let out = text.slice(0, start) + text.slice(start + insertion.chunk.length);
      const prev = children[index - 1];
      if (insertion.addedComma && prev !== undefined) {
        const prevEnd = prev.offset + prev.length;
        if (out[prevEnd] === ',') out = out.slice(0, prevEnd) + out.slice(prevEnd + 1);
      }
      return { text: out, exact: true };
    }
  }
  const edits = modify(text, [...containerPath, key], undefined, {});
  return { text: applyEdits(text, edits), exact: false };
}
