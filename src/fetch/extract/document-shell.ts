// Legacy pages often omit <head> (`<html><title>…</title><body>…`). Browsers imply it; linkedom does not:
// asked for document.body, it finds no <head> first, makes one, then finds the <title> after it where it
// expects <body>, and makes an empty <body> too, so the page's whole text went unread. Putting the
// elements before <body> into a <head> of their own gives linkedom the shell it expects.

interface ShellNode {
  nodeName: string;
  parentNode: ShellNode | null;
  childNodes: ArrayLike<ShellNode>;
  firstChild: ShellNode | null;
  insertBefore(node: ShellNode, before: ShellNode | null): ShellNode;
  appendChild(node: ShellNode): ShellNode;
}

interface ShellDocument {
  documentElement: ShellNode | null;
  createElement(name: string): ShellNode;
}

/** What belongs in <head>; anything else found before <body> is content and goes to the start of <body>. */
const HEAD_ONLY = new Set(['TITLE', 'META', 'LINK', 'BASE', 'STYLE', 'SCRIPT', 'NOSCRIPT', 'TEMPLATE']);

/** Mends `<html>` with a <body> but elements other than one <head> before it; other documents are left as they are. */
export function mendDocumentShell(document: ShellDocument): void {
  const root = document.documentElement;
  if (root?.nodeName !== 'HTML') return;
  const children = Array.from(root.childNodes);
  const body = children.find((c) => c.nodeName === 'BODY');
  if (!body) return;
  const stray = children.slice(0, children.indexOf(body)).filter((c) => c.nodeName !== 'HEAD' && c.nodeName !== '#text' && c.nodeName !== '#comment');
  if (stray.length === 0) return;
  let head = children.find((c) => c.nodeName === 'HEAD');
  if (!head) {
    head = document.createElement('head');
    root.insertBefore(head, root.firstChild);
  }
  const content = stray.filter((node) => !HEAD_ONLY.has(node.nodeName));
  for (const node of stray) if (HEAD_ONLY.has(node.nodeName)) head.appendChild(node);
  for (const node of content.reverse()) body.insertBefore(node, body.firstChild);
}
