/** The sentences of an instruction that tell the agent how to reply (`Reply with only a JSON array ...`). */
export function answerFormatOf(instruction: string): string | null {
  const sentences = instruction.split(/(?<=[.!?])\s+(?=[A-Z"'])/);
  const format = sentences.filter((sentence) => /\b(reply|respond|answer with)\b/i.test(sentence));
  return format.length === 0 ? null : format.join(" ");
}
