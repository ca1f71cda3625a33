import { Template } from "@huggingface/jinja";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import { loadTokenizer, type LoadedTokenizer } from "./load-tokenizer.js";
import { canonicalPythonJson } from "./python-json.js";

/** A chat message as the template sees it (OpenAI format; `reasoning_content` as vLLM / SGLang / DeepSeek name it). */
export interface TemplateMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  reasoning_content?: string | undefined;
  tool_calls?:
    | ReadonlyArray<{
        id?: string;
        type?: "function";
        function: { name: string; arguments: string };
      }>
    | undefined;
  tool_call_id?: string | undefined;
  name?: string | undefined;
}

/**
 * How tool-call arguments reach the template. `verbatim`: the model's exact argument string (Qwen3's template
 * prints a string argument as is). `python-json`: `json.dumps(json.loads(arguments), ensure_ascii=False)`, which
 * is what transformers and vLLM render when the arguments are parsed to a dict first (floats keep `1.0`).
 */
export type ToolArgumentsMode = "verbatim" | "python-json";

export interface ConversationInput {
  messages: readonly TemplateMessage[];
  /** OpenAI function tools (`{type: "function", function: {name, description, parameters}}`). */
  tools?: readonly object[] | undefined;
  /** Passed to the template only when set (Qwen3: false ends the generation prompt with an empty think block). */
  enableThinking?: boolean | undefined;
  toolArguments?: ToolArgumentsMode | undefined;
}

export interface RenderInput extends ConversationInput {
  addGenerationPrompt?: boolean;
}

export interface RenderedConversation {
  text: string;
  tokenIds: number[];
  /** 1 for tokens the model generated in assistant turns (reasoning, content, tool calls, the end-of-turn token). */
  lossMask: number[];
  /** The assistant parts as [start, end) character offsets into `text` (what mask-1 tokens decode to). */
  assistantSpans: Array<[number, number]>;
}

export interface ObservationInput {
  /** The tokens of the conversation so far, ending with what the model generated. */
  previousTokenIds: readonly number[];
  /** The new non-assistant messages (tool results, a user follow-up) to append. */
  messages: readonly TemplateMessage[];
  tools?: readonly object[] | undefined;
  enableThinking?: boolean | undefined;
  /** Append the generation prompt of the next assistant turn (default true). */
  addGenerationPrompt?: boolean;
}

export interface RenderedObservation {
  text: string;
  /** Tokens to append (all mask 0): the template's separator after the model's end-of-turn, the messages, the next generation prompt. */
  tokenIds: number[];
  /** How many of `tokenIds` close the model's turn: the separator (Qwen3: `\n`), plus the end-of-turn token if generation was cut off. */
  boundaryTokenCount: number;
}

/** What the template puts around an assistant turn, learnt by rendering probes. */
export interface AssistantMarkers {
  /** The generation prompt without thinking options (Qwen3: `<|im_start|>assistant\n`). */
  header: string;
  /** The token that ends an assistant turn (Qwen3: `<|im_end|>`); the model generates it. */
  endOfTurn: string;
  endOfTurnTokenId: number;
  /** What the template puts after the end-of-turn token and generation does not produce (Qwen3: `\n`). */
  separator: string;
}

export interface ChatRenderer {
  readonly tokenizerName: string;
  readonly templateHash: string;
  readonly tokenizerHash: string;
  readonly markers: AssistantMarkers;
  /** The variables the template is rendered with (messages normalised, tools, flags, special tokens). */
  templateVariables(input: RenderInput): Record<string, unknown>;
  renderText(input: RenderInput): string;
  /** Text, token ids and loss mask of a whole conversation (no generation prompt unless asked). */
  render(input: RenderInput): RenderedConversation;
  /** The prompt of the next assistant turn: the conversation with the generation prompt, as token ids. */
  renderPrompt(input: ConversationInput): { text: string; tokenIds: number[] };
  /** Incremental rendering for multi-turn RL: tokens to append after the model's own tokens; never re-tokenises history. */
  renderObservation(input: ObservationInput): RenderedObservation;
  encode(text: string): number[];
  /** Text of token ids; an id outside the vocabulary is an error naming it (never silently dropped). */
  decode(tokenIds: readonly number[]): string;
  /** One more than the largest token id the tokenizer knows. */
  readonly vocabSize: number;
  countTokens(text: string): number;
  /**
   * Exact tokens of the prompt the template renders for these messages (with the generation prompt), computed
   * incrementally: for a conversation that only grows, each message is rendered and tokenised once.
   */
  countContext(
    messages: readonly TemplateMessage[],
    tools?: readonly object[],
    enableThinking?: boolean,
  ): number;
  /** Tokens the model generated for one assistant message as the template renders it in context (with end-of-turn). */
  countGenerated(message: TemplateMessage): number;
}

export interface ChatRendererOptions {
  /** A Hugging Face tokenizer folder; the built-in Qwen3 tokenizer when omitted. */
  tokenizer?: string;
}

const PROBE = "\u0001progagent-probe\u0001";
const MAX_CACHED_PIECES = 20_000;
const MAX_CACHED_PIECE_CHARS = 200_000;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function templateError(message: string, details: Record<string, string | number> = {}): ProgAgentError {
  return new ProgAgentError(message, { code: "CHAT_TEMPLATE_FAILED", category: "user", details });
}

interface ConversationState {
  tools: readonly object[] | undefined;
  enableThinking: boolean | undefined;
  refs: TemplateMessage[];
  headLength: number;
  headText: string;
  headTokens: number;
  /** Token counts of completed chunks (an assistant message and the non-assistant messages after it). */
  chunkTokens: number[];
  /** Message index where each completed chunk ends (exclusive). */
  chunkEnds: number[];
  /**
   * A stand-in head (same roles, short contents, no tools) and its text: once the first chunk renders the same
   * after it as after the real head, later chunks are rendered after the stand-in (cheaper than the real system
   * prompt and tool schemas every turn).
   */
  standIn: { messages: TemplateMessage[]; text: string } | undefined;
  standInVerified: boolean | undefined;
  /** The last chunk counted (without the generation prompt), reused when a later assistant message closes it. */
  lastChunk: { start: number; end: number; tokens: number } | undefined;
  /**
   * Shapes of chunks (see `chunkShape`) whose assistant turn was checked to render in the chunk exactly as
   * `countGenerated` renders it alone: for those the generated count is taken from the chunk's render.
   */
  generatedShapes: Set<string>;
}

const renderers = new Map<string, ChatRenderer>();

/** A renderer for one tokenizer and its chat template; cached per tokenizer folder. */
export function createChatRenderer(options: ChatRendererOptions = {}): ChatRenderer {
  const key = options.tokenizer ?? "";
  const cached = renderers.get(key);
  if (cached) return cached;
  const renderer = buildRenderer(loadTokenizer(options.tokenizer));
  renderers.set(key, renderer);
  return renderer;
}

function buildRenderer(loaded: LoadedTokenizer): ChatRenderer {
  const template = new Template(loaded.chatTemplate);
  const addedTokens = [...loaded.addedTokens.keys()].sort((a, b) => b.length - a.length);
  const splitter =
    addedTokens.length > 0 ? new RegExp(`(${addedTokens.map(escapeRegExp).join("|")})`, "g") : undefined;
  const pieceCache = new Map<string, number[]>();

  const encodePiece = (piece: string): number[] => {
    const added = loaded.addedTokens.get(piece);
    if (added !== undefined) return [added];
    const hit = pieceCache.get(piece);
    if (hit) {
      pieceCache.delete(piece);
      pieceCache.set(piece, hit);
      return hit;
    }
    const ids = loaded.tokenizer.encode(piece, { add_special_tokens: false }).ids;
    if (piece.length <= MAX_CACHED_PIECE_CHARS) {
      pieceCache.set(piece, ids);
      if (pieceCache.size > MAX_CACHED_PIECES) pieceCache.delete(pieceCache.keys().next().value!);
    }
    return ids;
  };
  /** Text split at added tokens, the way the tokenizer splits it before BPE. */
  const pieces = (text: string): string[] =>
    splitter ? text.split(splitter).filter((piece) => piece.length > 0) : [text];
  const encode = (text: string): number[] => {
    const ids: number[] = [];
    for (const piece of pieces(text)) for (const id of encodePiece(piece)) ids.push(id);
    return ids;
  };
  const countPiece = (piece: string): number => {
    if (loaded.addedTokens.has(piece)) return 1;
    return loaded.pieceCounter?.count(piece) ?? encodePiece(piece).length;
  };
  const countTokens = (text: string): number => {
    let count = 0;
    for (const piece of pieces(text)) count += countPiece(piece);
    return count;
  };

  const normaliseMessage = (message: TemplateMessage, mode: ToolArgumentsMode): Record<string, unknown> => {
    const out: Record<string, unknown> = { role: message.role, content: message.content ?? "" };
    if (message.reasoning_content !== undefined) out.reasoning_content = message.reasoning_content;
    if (message.tool_calls && message.tool_calls.length > 0) {
      out.tool_calls = message.tool_calls.map((call) => ({
        ...(call.id === undefined ? {} : { id: call.id }),
        type: "function",
        function: {
          name: call.function.name,
          arguments:
            mode === "python-json"
              ? (canonicalPythonJson(call.function.arguments) ?? call.function.arguments)
              : call.function.arguments,
        },
      }));
    }
    if (message.tool_call_id !== undefined) out.tool_call_id = message.tool_call_id;
    if (message.name !== undefined) out.name = message.name;
    return out;
  };

  const templateVariables = (input: RenderInput): Record<string, unknown> => {
    const mode = input.toolArguments ?? "verbatim";
    return {
      ...loaded.specialTokens,
      messages: input.messages.map((message) => normaliseMessage(message, mode)),
      ...(input.tools && input.tools.length > 0 ? { tools: input.tools } : {}),
      add_generation_prompt: input.addGenerationPrompt ?? false,
      ...(input.enableThinking === undefined ? {} : { enable_thinking: input.enableThinking }),
    };
  };

  const renderText = (input: RenderInput): string => {
    try {
      return template.render(templateVariables(input));
    } catch (error) {
      throw new ProgAgentError(`the chat template of ${loaded.name} failed: ${(error as Error).message}`, {
        code: "CHAT_TEMPLATE_FAILED",
        category: "user",
        cause: error,
      });
    }
  };

  const markers = learnMarkers(renderText, loaded);

  /** The [start, end) offsets of every complete assistant turn in a rendered conversation. */
  const assistantSpans = (text: string, assistantCount: number): Array<[number, number]> => {
    const spans: Array<[number, number]> = [];
    let cursor = 0;
    for (;;) {
      const header = text.indexOf(markers.header, cursor);
      if (header < 0) break;
      const start = header + markers.header.length;
      const end = text.indexOf(markers.endOfTurn, start);
      if (end < 0) break; // the generation prompt at the end
      spans.push([start, end + markers.endOfTurn.length]);
      cursor = end + markers.endOfTurn.length;
    }
    if (spans.length !== assistantCount)
      throw templateError(
        `found ${spans.length} assistant turns in the rendered conversation, expected ${assistantCount}: a message's content contains the template's control text (${JSON.stringify(markers.header)}), so the loss mask would be wrong`,
        { found: spans.length, expected: assistantCount },
      );
    return spans;
  };

  const render = (input: RenderInput): RenderedConversation => {
    const text = renderText(input);
    const spans = assistantSpans(
      text,
      input.messages.filter((message) => message.role === "assistant").length,
    );
    const byteLengths = loaded.tokenByteLengths;
    if (!byteLengths)
      throw templateError(
        `loss masks need a byte-level BPE tokenizer (Qwen, Llama 3, GPT-style); ${loaded.name} is not one`,
      );
    const tokenIds: number[] = [];
    const lossMask: number[] = [];
    let offset = 0;
    let spanIndex = 0;
    for (const piece of pieces(text)) {
      const pieceStart = offset;
      const pieceEnd = offset + piece.length;
      offset = pieceEnd;
      const ids = encodePiece(piece);
      while (spanIndex < spans.length && spans[spanIndex]![1] <= pieceStart) spanIndex += 1;
      const span = spans[spanIndex];
      if (!span || span[0] >= pieceEnd) {
        for (const id of ids) {
          tokenIds.push(id);
          lossMask.push(0);
        }
        continue;
      }
      if (span[0] <= pieceStart && span[1] >= pieceEnd) {
        for (const id of ids) {
          tokenIds.push(id);
          lossMask.push(1);
        }
        continue;
      }
      // The piece crosses a span boundary (e.g. "assistant\n" + content): mask by each token's byte offset.
      const startByte = Buffer.byteLength(piece.slice(0, Math.max(0, span[0] - pieceStart)), "utf8");
      const endByte = Buffer.byteLength(piece.slice(0, Math.min(piece.length, span[1] - pieceStart)), "utf8");
      let byte = 0;
      for (const id of ids) {
        tokenIds.push(id);
        lossMask.push(byte >= startByte && byte < endByte ? 1 : 0);
        byte += byteLengths[id] ?? 0;
      }
    }
    return { text, tokenIds, lossMask, assistantSpans: spans };
  };

  const renderPrompt = (input: ConversationInput): { text: string; tokenIds: number[] } => {
    const text = renderText({ ...input, addGenerationPrompt: true });
    return { text, tokenIds: encode(text) };
  };

  // A fixed conversation the observation is rendered after: the template's output for the new messages is
  // what it adds past this base (verl's "continuous token" approach).
  const baseMessages: TemplateMessage[] = [
    { role: "system", content: "base" },
    { role: "user", content: "base" },
    {
      role: "assistant",
      content: "",
      tool_calls: [{ id: "base", type: "function", function: { name: "base", arguments: "{}" } }],
    },
  ];

  const renderObservation = (input: ObservationInput): RenderedObservation => {
    const assistantInNew = input.messages.find((message) => message.role === "assistant");
    if (assistantInNew)
      throw templateError(
        "renderObservation takes only new non-assistant messages: the model's own turns are its generated tokens",
      );
    const fullText = renderText({
      tools: input.tools,
      enableThinking: input.enableThinking,
      messages: [...baseMessages, ...input.messages],
      addGenerationPrompt: input.addGenerationPrompt ?? true,
    });
    // The new messages start after the base assistant turn (the first in the text): its end-of-turn and
    // separator. Finding it in this render, not in a render of the base alone, keeps templates that render the
    // last assistant message differently (Qwen3's empty think block) exact.
    const header = fullText.indexOf(markers.header);
    const closing = header < 0 ? -1 : fullText.indexOf(markers.endOfTurn + markers.separator, header);
    if (closing < 0)
      throw templateError(
        `the chat template of ${loaded.name} does not end an assistant turn with its end-of-turn token`,
      );
    const delta = fullText.slice(closing + markers.endOfTurn.length + markers.separator.length);
    const previousLast = input.previousTokenIds.at(-1);
    const boundaryText =
      previousLast === markers.endOfTurnTokenId ? markers.separator : markers.endOfTurn + markers.separator;
    const boundary = encode(boundaryText);
    const tokenIds = [...boundary, ...encode(delta)];
    return { text: boundaryText + delta, tokenIds, boundaryTokenCount: boundary.length };
  };

  const states = new WeakMap<readonly TemplateMessage[], ConversationState>();

  /** The text a chunk adds after the head, or undefined when rendering is not local for this template. */
  const chunkDelta = (
    state: ConversationState,
    messages: readonly TemplateMessage[],
    generation: boolean,
  ): string | undefined => {
    const after = (
      head: readonly TemplateMessage[],
      headText: string,
      tools: readonly object[] | undefined,
    ) => {
      const text = renderText({
        messages: [...head, ...messages],
        tools,
        enableThinking: state.enableThinking,
        addGenerationPrompt: generation,
      });
      if (!text.startsWith(headText)) return undefined;
      const delta = text.slice(headText.length);
      return addedTokens.some((token) => delta.startsWith(token)) ? delta : undefined;
    };
    const standIn = state.standIn!;
    if (state.standInVerified) return after(standIn.messages, standIn.text, undefined);
    const real = after(state.refs.slice(0, state.headLength), state.headText, state.tools);
    if (state.standInVerified === undefined)
      state.standInVerified = real !== undefined && after(standIn.messages, standIn.text, undefined) === real;
    return real;
  };

  const countContext = (
    messages: readonly TemplateMessage[],
    tools?: readonly object[],
    enableThinking?: boolean,
  ): number => {
    const full = (): number =>
      countTokens(renderText({ messages, tools, enableThinking, addGenerationPrompt: true }));
    const headLength = messages.findIndex((message) => message.role === "assistant");
    if (headLength <= 0) return full();
    // Local rendering holds while no user or system message follows the first assistant turn.
    for (let index = headLength; index < messages.length; index += 1) {
      const role = messages[index]!.role;
      if (role === "user" || role === "system") return full();
    }
    let state = states.get(messages);
    const valid =
      state !== undefined &&
      (state.tools === tools || JSON.stringify(state.tools ?? []) === JSON.stringify(tools ?? [])) &&
      state.enableThinking === enableThinking &&
      state.headLength === headLength &&
      state.refs.every((message, index) => messages[index] === message);
    if (!valid) {
      const headText = renderText({ messages: messages.slice(0, headLength), tools, enableThinking });
      const standInMessages = messages
        .slice(0, headLength)
        .map((message): TemplateMessage => ({ role: message.role, content: "base" }));
      state = {
        standIn: {
          messages: standInMessages,
          text: renderText({ messages: standInMessages, enableThinking }),
        },
        standInVerified: undefined,
        tools,
        enableThinking,
        refs: messages.slice(0, headLength),
        headLength,
        headText,
        headTokens: countTokens(headText),
        chunkTokens: [],
        chunkEnds: [],
        lastChunk: undefined,
        generatedShapes: new Set(),
      };
      states.set(messages, state);
    }
    const current = state!;
    const chunkStarts: number[] = [];
    for (let index = headLength; index < messages.length; index += 1)
      if (messages[index]!.role === "assistant") chunkStarts.push(index);
    const deltaTokens = (start: number, end: number, generation: boolean): number | undefined => {
      const delta = chunkDelta(current, messages.slice(start, end), generation);
      if (delta === undefined) return undefined;
      noteGenerated(current, messages.slice(start, end), delta);
      return countTokens(delta);
    };
    // Complete the chunks that a later assistant message closed.
    for (let chunk = current.chunkTokens.length; chunk < chunkStarts.length - 1; chunk += 1) {
      const start = chunkStarts[chunk]!;
      const end = chunkStarts[chunk + 1]!;
      // A chunk of only an assistant message renders differently as the last message: use the full render.
      if (end - start < 2) return full();
      const reuse = current.lastChunk;
      const tokens =
        reuse && reuse.start === start && reuse.end === end ? reuse.tokens : deltaTokens(start, end, false);
      if (tokens === undefined) return full();
      current.chunkTokens.push(tokens);
      current.chunkEnds.push(end);
    }
    current.refs = messages.slice(0, chunkStarts.length > 0 ? chunkStarts.at(-1) : headLength);
    const lastStart = chunkStarts.at(-1)!;
    if (messages.length - lastStart < 2) return full();
    const prompt = generationPromptTokens(enableThinking);
    let last: number | undefined;
    if (prompt !== undefined) {
      const withoutPrompt = deltaTokens(lastStart, messages.length, false);
      if (withoutPrompt !== undefined) {
        current.lastChunk = { start: lastStart, end: messages.length, tokens: withoutPrompt };
        last = withoutPrompt + prompt;
      }
    } else last = deltaTokens(lastStart, messages.length, true);
    if (last === undefined) return full();
    return current.headTokens + current.chunkTokens.reduce((sum, tokens) => sum + tokens, 0) + last;
  };

  const promptTokens = new Map<boolean | undefined, number | undefined>();
  /** Tokens of the generation prompt when it is a plain suffix that starts at a token boundary, else undefined. */
  const generationPromptTokens = (enableThinking: boolean | undefined): number | undefined => {
    if (promptTokens.has(enableThinking)) return promptTokens.get(enableThinking);
    const probe: TemplateMessage[] = [
      { role: "user", content: PROBE },
      { role: "assistant", content: "", tool_calls: baseMessages[2]!.tool_calls },
      { role: "tool", content: PROBE, tool_call_id: "base" },
    ];
    const without = renderText({ messages: probe, enableThinking });
    const withPrompt = renderText({ messages: probe, enableThinking, addGenerationPrompt: true });
    const suffix = withPrompt.slice(without.length);
    const tokens =
      withPrompt.startsWith(without) && addedTokens.some((token) => suffix.startsWith(token))
        ? countTokens(suffix)
        : undefined;
    promptTokens.set(enableThinking, tokens);
    return tokens;
  };

  const generatedCounts = new WeakMap<TemplateMessage, number>();
  /**
   * The assistant turn as the template renders it in context (not last, after the query); its text from after
   * the header through the end-of-turn token is what the model generated. Works for any tokenizer.
   */
  const generatedText = (message: TemplateMessage): string => {
    const text = renderText({
      messages: [
        { role: "user", content: "probe" },
        message,
        { role: "tool", content: "probe", tool_call_id: "probe" },
      ],
    });
    const [span] = assistantSpans(text, 1);
    return text.slice(span![0], span![1]);
  };
  const countGenerated = (message: TemplateMessage): number => {
    const known = generatedCounts.get(message);
    if (known !== undefined) return known;
    const count = countTokens(generatedText(message));
    generatedCounts.set(message, count);
    return count;
  };

  /**
   * Takes the generated count of a chunk's assistant message from the chunk's render, saving `countGenerated`
   * its own render (half the template work of a conversation that grows by tool calls). Trusted for a chunk
   * shape only once a chunk of that shape rendered its assistant turn exactly as `generatedText` does.
   */
  const noteGenerated = (
    state: ConversationState,
    chunk: readonly TemplateMessage[],
    delta: string,
  ): void => {
    const message = chunk[0]!;
    if (generatedCounts.has(message)) return;
    const header = delta.indexOf(markers.header);
    const end = header < 0 ? -1 : delta.indexOf(markers.endOfTurn, header + markers.header.length);
    if (end < 0) return;
    const text = delta.slice(header + markers.header.length, end + markers.endOfTurn.length);
    // A turn holding the template's control text is left to countGenerated (which refuses a forged turn).
    const fields = [
      message.content ?? "",
      message.reasoning_content ?? "",
      ...(message.tool_calls ?? []).flatMap((call) => [call.function.name, call.function.arguments]),
    ];
    if (fields.some((field) => field.includes(markers.header) || field.includes(markers.endOfTurn))) return;
    const shape = chunkShape(chunk);
    if (!state.generatedShapes.has(shape)) {
      if (generatedText(message) !== text) return;
      state.generatedShapes.add(shape);
    }
    generatedCounts.set(message, countTokens(text));
  };

  return {
    tokenizerName: loaded.name,
    templateHash: loaded.templateHash,
    tokenizerHash: loaded.tokenizerHash,
    markers,
    templateVariables,
    renderText,
    render,
    renderPrompt,
    renderObservation,
    encode,
    decode: (tokenIds) => {
      const outside = tokenIds.find((id) => !Number.isInteger(id) || id < 0 || id >= loaded.vocabSize);
      if (outside !== undefined)
        throw new ProgAgentError(
          `token id ${outside} is outside the vocabulary of ${loaded.name} (ids 0..${loaded.vocabSize - 1})`,
          { code: ERROR_CODES.INVALID_ARGUMENT, category: "user" },
        );
      return loaded.tokenizer.decode([...tokenIds], { skip_special_tokens: false });
    },
    vocabSize: loaded.vocabSize,
    countTokens,
    countContext,
    countGenerated,
  };
}

function learnMarkers(renderText: (input: RenderInput) => string, loaded: LoadedTokenizer): AssistantMarkers {
  const user: TemplateMessage = { role: "user", content: PROBE };
  const withoutPrompt = renderText({ messages: [user] });
  const withPrompt = renderText({ messages: [user], addGenerationPrompt: true });
  if (!withPrompt.startsWith(withoutPrompt) || withPrompt.length === withoutPrompt.length)
    throw templateError(`the chat template of ${loaded.name} has no generation prompt`);
  const header = withPrompt.slice(withoutPrompt.length);
  const answered = renderText({ messages: [user, { role: "assistant", content: PROBE }] });
  const after = answered.slice(answered.lastIndexOf(PROBE) + PROBE.length);
  const endOfTurn = [...loaded.addedTokens.keys()]
    .filter((token) => after.startsWith(token))
    .sort((a, b) => b.length - a.length)[0];
  if (endOfTurn === undefined)
    throw templateError(
      `the chat template of ${loaded.name} does not end an assistant turn with a special token`,
    );
  return {
    header,
    endOfTurn,
    endOfTurnTokenId: loaded.addedTokens.get(endOfTurn)!,
    separator: after.slice(endOfTurn.length),
  };
}

/**
 * What a template may branch on in a chunk besides the text itself: which fields the assistant message has,
 * how many calls it makes and how many messages follow it (with their roles).
 */
function chunkShape(chunk: readonly TemplateMessage[]): string {
  const [assistant, ...rest] = chunk;
  return [
    assistant!.content === null ? "null" : assistant!.content === "" ? "empty" : "text",
    assistant!.reasoning_content === undefined ? "-" : assistant!.reasoning_content === "" ? "r0" : "r",
    assistant!.tool_calls?.length ?? 0,
    assistant!.name === undefined ? "-" : "n",
    ...rest.map((message) => message.role),
  ].join("|");
}
