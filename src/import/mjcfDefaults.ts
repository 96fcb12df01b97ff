// MJCF default classes, for the few attributes the WebAssembly bindings cannot read back from the
// compiled model (byte flags such as an actuator's actearly): the value an element gets is its own
// attribute, else the nearest one set in its class's <default> or in that default's ancestors, the
// way MuJoCo's XML reader applies defaults. An actuator's class is its `class` attribute or "main"
// (childclass applies to bodies' subtrees, which actuators are not in).
import { attr, type XmlElement } from './xml';

/** The actuator tags that share one default in MuJoCo (each shortcut writes the same actuator default). */
export const ACTUATOR_TAGS = ['general', 'motor', 'position', 'velocity', 'intvelocity', 'damper', 'cylinder', 'muscle', 'adhesion'];

function findDefault(el: XmlElement, cls: string, top: boolean): XmlElement | undefined {
  for (const c of el.children) {
    if (c.name !== 'default') continue;
    const name = attr(c, 'class') ?? (top ? 'main' : undefined);
    if (name === cls) return c;
    const inner = findDefault(c, cls, false);
    if (inner) return inner;
  }
  return undefined;
}

/** The value of `name` that `el` (one of `tags`) gets from its own attributes or its default class. */
export function defaultedAttr(root: XmlElement, el: XmlElement, name: string, tags: readonly string[]): string | undefined {
  const own = attr(el, name);
  if (own !== undefined) return own;
  let d = findDefault(root, attr(el, 'class') ?? 'main', true);
  for (; d && d.name === 'default'; d = d.parent) {
    let v: string | undefined;
    for (const c of d.children) if (tags.includes(c.name)) v = attr(c, name) ?? v;
    if (v !== undefined) return v;
  }
  return undefined;
}
