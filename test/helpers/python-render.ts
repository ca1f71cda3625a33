import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const script = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "fixtures", "render_chat.py");

export interface PythonRenderCase {
  variables: Record<string, unknown>;
  /** Parse each tool call's arguments with json.loads before rendering (as vLLM does). */
  parseArguments?: boolean;
}

/** Renders with Python's jinja2 the way transformers' apply_chat_template does (test/fixtures/render_chat.py). */
export function renderWithPython(template: string, cases: readonly PythonRenderCase[]): string[] {
  const output = execFileSync("/usr/bin/python3", [script], {
    input: JSON.stringify({
      template,
      cases: cases.map((entry) => ({
        variables: entry.variables,
        parse_arguments: entry.parseArguments ?? false,
      })),
    }),
    maxBuffer: 2 ** 30,
    timeout: 300_000,
  });
  const results = JSON.parse(output.toString("utf8")) as Array<{ text?: string; error?: string }>;
  return results.map((result, index) => {
    if (result.error !== undefined) throw new Error(`python render of case ${index} failed: ${result.error}`);
    return result.text!;
  });
}
