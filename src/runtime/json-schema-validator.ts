import type * as AjvModule from "ajv";
import type { Ajv } from "ajv";
import { createRequire } from "node:module";

// Both are CommonJS, required when the first validator is made rather than by every importer of the runtime.
const require = createRequire(import.meta.url);

/**
 * The validator for upstream tools' JSON Schemas: lenient about keywords it does not know (servers write
 * schemas for many drafts), and with the standard formats (`uri`, `email`, `date-time`, ...) known, so that
 * they are checked instead of each printing "unknown format ... ignored" on stderr.
 */
export function createSchemaValidator(): Ajv {
  const { Ajv: AjvClass } = require("ajv") as typeof AjvModule;
  const formats = require("ajv-formats") as { default?: (ajv: Ajv) => Ajv } & ((ajv: Ajv) => Ajv);
  const addFormats = formats.default ?? formats;
  const ajv = new AjvClass({ allErrors: true, strict: false, logger: false });
  addFormats(ajv);
  return ajv;
}
