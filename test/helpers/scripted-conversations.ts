import type { TemplateMessage } from "../../src/chat-template/index.js";

/** Conversations that exercise the chat template's corners: reasoning, parallel calls, errors, floats, Unicode. */
export interface ScriptedConversation {
  name: string;
  messages: TemplateMessage[];
  tools: object[];
}

const tools = [
  {
    type: "function",
    function: {
      name: "get_price",
      description: 'Price of an item in €, with ünïcödé and "quotes" <b>tags</b> & ampersands',
      parameters: {
        type: "object",
        properties: { sku: { type: "string" }, quantity: { type: "number", minimum: 0.5 } },
        required: ["sku"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "programmatic_tool_call",
      description: "Run Python code.",
      parameters: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
    },
  },
];

const call = (id: string, name: string, args: string) => ({
  id,
  type: "function" as const,
  function: { name, arguments: args },
});

export const SCRIPTED_CONVERSATIONS: ScriptedConversation[] = [
  {
    name: "reasoning, parallel calls, floats and key order",
    tools,
    messages: [
      { role: "system", content: "You are an agent." },
      { role: "user", content: "Price 1.0 kg of SKU-1 and 2.50 units of SKU-2." },
      {
        role: "assistant",
        content: "Let me look both up.",
        reasoning_content: "\nI need two prices; call them in parallel.\n",
        tool_calls: [
          call("a", "get_price", '{"sku": "SKU-1", "quantity": 1.0}'),
          call("b", "get_price", '{"quantity":2.50,"sku":"SKU-2","10":{"z":1e16,"y":1e-5,"x":-0.0}}'),
        ],
      },
      { role: "tool", tool_call_id: "a", content: '{"price": 3.0}' },
      { role: "tool", tool_call_id: "b", content: "Error: unknown key '10'" },
      {
        role: "assistant",
        content: "",
        reasoning_content: "The second call failed; retry.",
        tool_calls: [call("c", "get_price", '{"sku": "SKU-2", "quantity": 2.50}')],
      },
      { role: "tool", tool_call_id: "c", content: '{"price": 12.25}' },
      { role: "assistant", content: "Total: 15.25 €.", reasoning_content: "3.0 + 12.25" },
    ],
  },
  {
    name: "non-ASCII, empty content, inline think tags, a very long output",
    tools,
    messages: [
      { role: "system", content: "Système: réponds en français. 日本語もOK. Emoji 🚀." },
      { role: "user", content: "Lis le fichier « données.csv » et résume-le." },
      {
        role: "assistant",
        content: "<think>\nThe user wants a summary.\n</think>\n\nJe lance le code.",
        tool_calls: [
          call(
            "p",
            "programmatic_tool_call",
            '{"code": "print(open(\'données.csv\').read()[:10])\\nprint(\\"ü\\")"}',
          ),
        ],
      },
      { role: "tool", tool_call_id: "p", content: `ligne;valeur\n${"é,ü;1.0\n".repeat(6_000)}(fin)` },
      {
        role: "assistant",
        content: null,
        tool_calls: [call("q", "programmatic_tool_call", '{"code":"x = 1\\nprint(x)"}')],
      },
      { role: "tool", tool_call_id: "q", content: "" },
      { role: "assistant", content: "" },
    ],
  },
  {
    name: "a second user turn drops earlier reasoning",
    tools: [],
    messages: [
      { role: "user", content: "First question?" },
      { role: "assistant", content: "First answer.", reasoning_content: "old reasoning" },
      { role: "user", content: "<tool_response>not really a tool</tool_response> Second question?" },
      {
        role: "assistant",
        content: "Calling.",
        reasoning_content: "new reasoning",
        tool_calls: [call("t", "get_price", '{ "sku" : "S" }')],
      },
      { role: "tool", tool_call_id: "t", content: "{}" },
    ],
  },
];
