/**
 * The attacks of attacks.md's second review (B1-B6, H2/H4) as a client of `rollout serve` sends them, for the
 * hostile-neighbour bench (bench/rollout-hostile.ts runs them in a thread of their own).
 */
import { connect, type Socket } from "node:net";

export interface HostileService {
  url: string;
  token: string;
}

export const TASK = "retail.apply-supplier-recall";

export async function request(
  service: HostileService,
  method: string,
  path: string,
  body?: string | object,
): Promise<{ status: number; value: Record<string, unknown> }> {
  const response = await fetch(new URL(path, service.url), {
    method,
    headers: { authorization: `Bearer ${service.token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    signal: AbortSignal.timeout(600_000),
  });
  const text = await response.text();
  let value: Record<string, unknown> = {};
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // a text answer
  }
  return { status: response.status, value };
}

export async function openEpisode(service: HostileService, mode: string, render = false): Promise<string> {
  const created = await request(service, "POST", "/v1/episodes", {
    task: TASK,
    scale: "v0",
    mode,
    ...(render ? { render: {} } : {}),
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.value)}`);
  return String(created.value.episode_id);
}

const toolCall = (name: string, args: object): string =>
  `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
const deep = (levels: number): string => `${"[".repeat(levels)}${"]".repeat(levels)}`;

/** Sends headers and part of a body without the token, then nothing (B6); resolves when the server closes it. */
function unauthenticatedHalfBody(service: HostileService): Promise<void> {
  const { hostname, port, host } = new URL(service.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(
        `POST /v1/episodes HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"task":`,
      ),
    );
    const timer = setTimeout(() => socket.destroy(), 30_000);
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export type Attack = (service: HostileService) => Promise<void>;

/** One request of each attack (episodes it needs are opened as they end). */
export function attacks(): Array<{ name: string; run: Attack }> {
  let dtc: string | undefined;
  let rendered: string | undefined;
  const live = async (service: HostileService, id: string | undefined, mode: string, render: boolean) => {
    const state = id ? await request(service, "GET", `/v1/episodes/${id}`) : undefined;
    return state?.status === 200 && state.value.done === false
      ? id!
      : await openEpisode(service, mode, render);
  };
  const completion = async (service: HostileService, text: string, render: boolean): Promise<void> => {
    if (render) rendered = await live(service, rendered, "ptc", true);
    else dtc = await live(service, dtc, "dtc", false);
    await request(service, "POST", `/v1/episodes/${render ? rendered : dtc}/completion`, { text });
  };
  return [
    {
      name: "B1 glob task id",
      run: async (service) =>
        void (await request(service, "POST", "/v1/episodes", {
          task: "*.**************Q",
          scale: "v0",
          mode: "dtc",
        })),
    },
    {
      name: "B2 80,000 unclosed <parameter= (1 MB)",
      run: (service) =>
        completion(
          service,
          `<tool_call>\n<function=list_files>\n${"<parameter=a>".repeat(80_000)}\n</function>\n</tool_call>`,
          false,
        ),
    },
    {
      name: "B3 /v1/tokenize 256 KiB of one letter",
      run: async (service) =>
        void (await request(service, "POST", "/v1/tokenize", { text: "a".repeat(256 * 1024) })),
    },
    {
      name: "B3 rendered completion, 1 MiB of one letter",
      run: (service) =>
        completion(
          service,
          `${"a".repeat(1024 * 1024)}${toolCall("programmatic_tool_call", { code: "print(1)" })}<|im_end|>`,
          true,
        ),
    },
    {
      name: "B3 observation of 8 x 50,000 of one letter",
      run: (service) =>
        completion(
          service,
          `${Array.from({ length: 8 }, () => toolCall("programmatic_tool_call", { code: "print('a' * 50_000)" })).join("\n")}<|im_end|>`,
          true,
        ),
    },
    {
      name: "B4 15 MiB completion, unclosed <tool_call>",
      run: (service) =>
        completion(service, `${"x".repeat(15 * 1024 * 1024)}\n<tool_call>\n{"name": "list_files"`, false),
    },
    { name: "B6 unauthenticated half-sent body", run: unauthenticatedHalfBody },
    {
      name: "H2/H4 bad percent-encoding, JSON 2M deep",
      run: async (service) => {
        await request(service, "GET", "/v1/episodes/%E0%A4%A");
        dtc = await live(service, dtc, "dtc", false);
        await request(
          service,
          "POST",
          `/v1/episodes/${dtc}/tool_calls`,
          `{"calls": [{"name": "list_files", "arguments": {"a": ${deep(2_000_000)}}}]}`,
        );
      },
    },
  ];
}

/** Connections that send part of a request line and nothing more, reopened as the server closes them (B6). */
export function holdSlowloris(service: HostileService, count: number): { stop(): void } {
  const { hostname, port } = new URL(service.url);
  const sockets = new Set<Socket>();
  let stopped = false;
  const open = (): void => {
    if (stopped) return;
    const socket = connect(Number(port), hostname, () => socket.write("GET /healthz HTTP/1.1\r\n"));
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => {
      sockets.delete(socket);
      setTimeout(open, 100).unref();
    });
  };
  for (let index = 0; index < count; index += 1) open();
  return {
    stop() {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}
