import { renderEmail } from "./documents.js";

/** One e-mail of a folder: its headers in the order they are shown (`Sent` among them) and its paragraphs. */
export interface FolderEmail {
  headers: Readonly<Record<string, string>> & { readonly Sent: string };
  body: string | readonly string[];
}

/**
 * Writes e-mails as numbered files in the order they were sent (by the `Sent` header's text, ties in the
 * order given): `${prefix}01.md`, `${prefix}02.md`, ..., each rendered by `renderEmail`.
 *
 * @example
 * writeEmailsBySent(context, "emails/ops-", [
 *   { headers: { From: "ops@example.com", Sent: "2025-06-30 11:40", Subject: "AOG N104RA" }, body: ["..."] },
 * ]);
 */
export function writeEmailsBySent(
  context: { writeFile(path: string, content: string): void },
  prefix: string,
  emails: readonly FolderEmail[],
  options: { digits?: number; extension?: string } = {},
): void {
  const { digits = 2, extension = ".md" } = options;
  [...emails]
    .sort((x, y) => x.headers.Sent.localeCompare(y.headers.Sent))
    .forEach((email, index) =>
      context.writeFile(
        `${prefix}${String(index + 1).padStart(digits, "0")}${extension}`,
        renderEmail(email.headers, email.body),
      ),
    );
}
