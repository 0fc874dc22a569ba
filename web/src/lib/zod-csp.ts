import { z } from "zod";

// zod probes `new Function("")` to decide whether to compile fast parsers. The dashboard's
// Content-Security-Policy forbids eval, so the probe would only log a CSP violation: tell zod up
// front to parse without compiled code. Imported first by main.tsx, before any schema parses.
z.config({ jitless: true });
