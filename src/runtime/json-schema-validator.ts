import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS: under NodeNext its default import is the module object on some toolchains.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/**
 * The validator for upstream tools' JSON Schemas: lenient about keywords it does not know (servers write
 * schemas for many drafts), and with the standard formats (`uri`, `email`, `date-time`, ...) known, so that
 * they are checked instead of each printing "unknown format ... ignored" on stderr.
 */
export function createSchemaValidator(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
  addFormats(ajv);
  return ajv;
}
