/**
 * Hostile /ws client messages, from the realtime contract's clientMessageSchema: wrong types,
 * hostile fields, prototype keys, deep nesting, invalid JSON and invalid UTF-8, and frames past the
 * socket's 64 KiB limit.
 */
import fc from "fast-check";
import { clientMessageSchema } from "#contract";
import { fieldPaths } from "./schema-paths.ts";
import { deepArray, type Json, nastyKey, nastyValue, protoObject } from "./values.ts";

/** One frame to send: text or bytes. */
export type WsFrame = { text: string } | { bytes: number[] };

const VALID: Json = { type: "heartbeat", data: { accountId: "a" } };
const PATHS = fieldPaths(clientMessageSchema).map((f) => f.path);

function withValue(path: string[], value: Json): Json {
  const msg = JSON.parse(JSON.stringify(VALID)) as { [k: string]: Json };
  let node = msg;
  for (const k of path.slice(0, -1)) {
    const child = node[k];
    node = child !== null && typeof child === "object" && !Array.isArray(child) ? child : (node[k] = {});
  }
  node[path[path.length - 1] as string] = value;
  return msg;
}

/** Arbitrary hostile frames. */
export const wsFrameArbitrary: fc.Arbitrary<WsFrame> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...PATHS), nastyValue).map(([p, v]) => ({ text: JSON.stringify(withValue(p, v)) })) },
  { weight: 2, arbitrary: fc.tuple(nastyKey, nastyValue).map(([k, v]) => ({ text: JSON.stringify({ ...(VALID as object), ...(JSON.parse(`{${JSON.stringify(k)}:${JSON.stringify(v)}}`) as object) }) })) },
  { weight: 2, arbitrary: nastyValue.map((v) => ({ text: JSON.stringify(v) })) },
  { weight: 1, arbitrary: nastyValue.map((v) => ({ text: JSON.stringify(protoObject(v)) })) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 3000 }).map((d) => ({ text: JSON.stringify({ type: "heartbeat", data: deepArray(d) }) })) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 64 }).map((s) => ({ text: s })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => ({ bytes: [...b, 0xff, 0xfe] })) },
  { weight: 1, arbitrary: fc.constantFrom<WsFrame>({ text: "" }, { text: "{" }, { text: "null" }, { text: '{"type":"heartbeat","data":' + "[".repeat(30_000) }, { text: "x".repeat(70 * 1024) }) },
);
