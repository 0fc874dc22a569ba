/**
 * Walks a zod 4 schema and lists the paths of the fields it declares (nested objects and the first
 * element of arrays), so the fuzz generators mutate every field the contract knows, including
 * fields added later, not only those of a hand-written sample body.
 */
import type { z } from "zod";

/** A field of a request body or query: its path (array elements as "0") and its zod type name. */
export interface FieldPath {
  path: string[];
  kind: string;
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Unwraps optional/nullable/default/pipe/readonly/catch/lazy to the schema that checks the input. */
function unwrap(schema: z.ZodType, depth = 0): z.ZodType {
  if (depth > 20) return schema;
  const def = defOf(schema);
  if (def.innerType) return unwrap(def.innerType, depth + 1);
  if (def.type === "pipe" && def.in) return unwrap(def.in, depth + 1);
  return schema;
}

/** Every field path of `schema` (the root itself excluded), depth-first. */
export function fieldPaths(schema: z.ZodType, prefix: string[] = [], depth = 0): FieldPath[] {
  if (depth > 8) return [];
  const s = unwrap(schema);
  const def = defOf(s);
  const out: FieldPath[] = [];
  if (def.type === "object" && def.shape) {
    for (const [key, child] of Object.entries(def.shape)) {
      const path = [...prefix, key];
      out.push({ path, kind: defOf(unwrap(child)).type });
      out.push(...fieldPaths(child, path, depth + 1));
    }
  } else if (def.type === "array" && def.element) {
    const path = [...prefix, "0"];
    out.push({ path, kind: defOf(unwrap(def.element)).type });
    out.push(...fieldPaths(def.element, path, depth + 1));
  } else if (def.type === "union" && def.options) {
    const seen = new Set<string>();
    for (const option of def.options) {
      for (const f of fieldPaths(option, prefix, depth + 1)) {
        const k = f.path.join(".");
        if (!seen.has(k)) {
          seen.add(k);
          out.push(f);
        }
      }
    }
  } else if (def.type === "intersection" && def.left && def.right) {
    out.push(...fieldPaths(def.left, prefix, depth + 1), ...fieldPaths(def.right, prefix, depth + 1));
  }
  return out;
}
