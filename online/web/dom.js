// @ts-check
/**
 * Building the page's elements.  Every text from the wire goes in as a text
 * node (textContent), never as HTML: a player named "<img src=x onerror=...>" is
 * shown as those characters.  No markup is ever parsed from a string.
 */

/** @typedef {string | number | Node | null | undefined | false} Child */

/**
 * An element with attributes, listeners ("on" + event name) and children.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      node.className = String(value);
    } else if (key === "text") {
      node.textContent = String(value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  append(node, children);
  return node;
}

/**
 * An SVG element (a drawing: attributes and children only).
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {...Element} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const node = /** @type {SVGElement} */ (document.createElementNS("http://www.w3.org/2000/svg", tag));
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const c of children) node.appendChild(c);
  return node;
}

/**
 * @param {Node} node
 * @param {(Child | Child[])[]} children
 */
function append(node, children) {
  for (const c of children) {
    if (Array.isArray(c)) {
      append(node, c);
    } else if (c === null || c === undefined || c === false) {
      continue;
    } else if (typeof c === "string" || typeof c === "number") {
      node.appendChild(document.createTextNode(String(c)));
    } else {
      node.appendChild(c);
    }
  }
}

/**
 * Replace a node's children.
 * @param {Node} node
 * @param {...(Child | Child[])} children
 */
export function fill(node, ...children) {
  while (node.firstChild) node.removeChild(node.firstChild);
  append(node, children);
}

/**
 * The element with this id (it is in index.html).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`no element #${id}`);
  return node;
}

/** Whether the person asked for less motion. */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
