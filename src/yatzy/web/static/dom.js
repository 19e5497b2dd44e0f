// Building the page's elements: h() makes one with its attributes, listeners and children,
// fill() replaces an element's children; $ finds one; main is where each screen goes.

export const $ = (sel) => document.querySelector(sel);
export const main = $("#main");

/** An element: ``class``, ``text``, ``on<event>`` listeners, other attributes (true: present). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** Replace an element's children, leaving out null and false (replaceChildren would print them). */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}
