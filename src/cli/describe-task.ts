import {
  CLAIM_DONE_SPEC,
  SCALES,
  SCALE_FACTORS,
  taskToolDefinitions,
  isExternalTask,
  type ExternalTaskDefinition,
  type Scale,
  type Task,
} from "../envs/index.js";
import {
  rangeNote,
  renderPythonSignature,
  toolInputJsonSchema,
  type JsonSchemaObject,
} from "../runtime/index.js";
import { answerFormatOf } from "./answer-format.js";

/** What `tasks show` prints: everything an agent (or its author) is told about a task. */
export interface TaskDescription {
  id: string;
  domain: string;
  summary: string;
  instruction: string;
  /** The sentences of the instruction that say how to answer; null when it says nothing about it. */
  answerFormat: string | null;
  workspaceWrite: boolean;
  /** How many of `tools` are the domain's (the rest are the workspace tools every task has). */
  domainToolCount: number;
  tools: Array<{
    name: string;
    kind: "read" | "write";
    description: string;
    /** How a program calls it: `tools["name"](...)` with this Python signature. */
    pythonSignature: string;
    inputSchema: JsonSchemaObject;
  }>;
  /** The tool that ends an episode with the answer. */
  finishTool: string;
  scales: Array<{ scale: Scale; rowFactor: number; fileFactor: number }>;
  /** An external task's upstream servers (its tools are theirs, listed when an episode starts them). */
  servers?: string[];
  /** Why an external task cannot run here. */
  skipped?: string;
}

/** An external task: its servers instead of tools, and no scale factors (the suite says what a scale means). */
function describeExternalTask(task: ExternalTaskDefinition): TaskDescription {
  return {
    id: task.id,
    domain: task.domain.id,
    summary: task.summary,
    instruction: task.instruction,
    answerFormat: answerFormatOf(task.instruction),
    workspaceWrite: true,
    domainToolCount: 0,
    tools: [],
    finishTool: CLAIM_DONE_SPEC.name,
    scales: [],
    servers: [...task.servers],
    ...(task.skipped === undefined ? {} : { skipped: task.skipped }),
  };
}

export function describeTask(task: Task): TaskDescription {
  if (isExternalTask(task)) return describeExternalTask(task);
  return {
    id: task.id,
    domain: task.domain.id,
    summary: task.summary,
    instruction: task.instruction,
    answerFormat: answerFormatOf(task.instruction),
    workspaceWrite: task.workspaceWrite === true,
    domainToolCount: task.tools.length,
    tools: taskToolDefinitions(task).map((tool) => {
      const inputSchema = toolInputJsonSchema(tool.inputSchema);
      return {
        name: tool.name,
        kind: tool.kind,
        description: tool.description,
        pythonSignature: renderPythonSignature({ name: tool.name, inputSchema, kind: tool.kind }),
        inputSchema,
      };
    }),
    finishTool: CLAIM_DONE_SPEC.name,
    scales: SCALES.map((scale) => ({
      scale,
      rowFactor: SCALE_FACTORS[scale].rows,
      fileFactor: SCALE_FACTORS[scale].files,
    })),
  };
}

/** The description as a reader wants it in a terminal. */
export function formatTaskDescription(description: TaskDescription): string {
  const lines = [
    `${description.id}  (domain ${description.domain})`,
    description.summary,
    "",
    "Instruction:",
    ...wrap(description.instruction, 98).map((line) => `  ${line}`),
    "",
    "Answer format:",
    `  ${description.answerFormat ?? "not stated; see the instruction"} (given to ${description.finishTool}{answer})`,
    "",
  ];
  if (description.servers) {
    lines.push(
      `External task: its tools are those of its MCP servers (${description.servers.join(", ")}), listed when an episode starts them.`,
    );
    if (description.skipped) lines.push(`Skipped here: ${description.skipped}`);
    return lines.join("\n");
  }
  lines.push(
    `Tools (${description.tools.length}: ${description.domainToolCount} of the domain, ${description.tools.length - description.domainToolCount} workspace${description.workspaceWrite ? ", workspace writable" : ""}):`,
  );
  for (const tool of description.tools) {
    lines.push(`  ${tool.pythonSignature}  [${tool.kind}]`);
    const bounds = Object.entries(tool.inputSchema.properties ?? {})
      .map(([name, schema]) => [name, rangeNote(schema).replace(/^, /, "")] as const)
      .filter(([, range]) => range !== "");
    if (bounds.length > 0)
      lines.push(`      (${bounds.map(([name, range]) => `${name}: ${range}`).join("; ")})`);
    lines.push(...wrap(tool.description, 94).map((line) => `      ${line}`));
  }
  lines.push(
    "",
    "Scales (the instruction is the same at every scale):",
    ...description.scales.map(
      (scale) => `  ${scale.scale}: database rows x${scale.rowFactor}, workspace files x${scale.fileFactor}`,
    ),
  );
  return lines.join("\n");
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line.length > 0 && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line.length === 0 ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return lines;
}
