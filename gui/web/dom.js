// Small helpers the panels share for the page's own elements (index.html).

export const $ = (id) => document.getElementById(id);

// Whether a key press is the page's (a shortcut), not typing in a field or a browser shortcut.
export function isPageKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return false;
  const target = event.target;
  const tag = target?.tagName?.toLowerCase();
  return !(tag === 'input' || tag === 'textarea' || tag === 'select' || target?.isContentEditable);
}
