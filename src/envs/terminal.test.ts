import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseTerminalCommand, refusedTerminalMessage } from "./terminal.js";

const workspace = mkdtempSync(join(tmpdir(), "progagent-terminal-parse-"));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
mkdirSync(join(workspace, "docs", "deep"), { recursive: true });
writeFileSync(join(workspace, "docs", "a.md"), "a\n");
symlinkSync("/etc/passwd", join(workspace, "passwd"));
symlinkSync("../../..", join(workspace, "docs", "deep", "up"));
symlinkSync("/workspace/docs", join(workspace, "docs-link"));
symlinkSync("deep/../a.md", join(workspace, "docs", "relative"));

const argv = (command: string): string[] => {
  const parsed = parseTerminalCommand(command, workspace);
  if (!parsed.ok) throw new Error(`refused: ${parsed.reason}`);
  return parsed.argv;
};
const reason = (command: string): string => {
  const parsed = parseTerminalCommand(command, workspace);
  if (parsed.ok) throw new Error(`allowed: ${parsed.argv.join(" ")}`);
  return parsed.reason;
};

describe("terminal commands", () => {
  it("allow ls, find and cat with ordinary flags, quotes and escapes, on workspace paths", () => {
    expect(argv("ls -la docs")).toEqual(["ls", "-la", "docs"]);
    expect(argv("ls --sort=size -R /workspace/docs")).toEqual(["ls", "--sort=size", "-R", "/workspace/docs"]);
    expect(argv(`cat -n "docs/a.md" 'my file.txt' caf\\ é.txt`)).toEqual([
      "cat",
      "-n",
      "docs/a.md",
      "my file.txt",
      "caf é.txt",
    ]);
    expect(argv("find . -type f -name '*.md' -maxdepth 3")).toEqual([
      "find",
      ".",
      "-type",
      "f",
      "-name",
      "*.md",
      "-maxdepth",
      "3",
    ]);
    expect(argv("find docs \\( -name a -o -iname 'B*' \\) ! -empty -print")).toContain("(");
    expect(argv("find")).toEqual(["find"]);
    // Links that stay inside the workspace, by absolute sandbox path or relative target.
    expect(argv("ls docs-link/deep")).toEqual(["ls", "docs-link/deep"]);
    expect(argv("cat docs/relative")).toEqual(["cat", "docs/relative"]);
  });

  it("refuse shell syntax, naming what was refused", () => {
    expect(reason("ls | cat")).toBe("a pipe '|'");
    expect(reason("ls; cat x")).toBe("';'");
    expect(reason("ls && ls")).toContain("'&'");
    expect(reason("cat $(echo x)")).toContain("'$'");
    expect(reason('cat "$HOME/x"')).toContain("'$'");
    expect(reason("cat `id`")).toContain("command substitution");
    expect(reason("ls > listing")).toBe("redirection '>'");
    expect(reason("cat < x")).toBe("redirection '<'");
    expect(reason("ls\nrm x")).toContain("newline");
    expect(reason("ls 'unterminated")).toContain("unterminated");
    expect(reason("ls *.md")).toContain("glob");
    expect(reason("ls ~")).toContain("'~'");
  });

  it("refuse other programs and flags that run, write or follow links", () => {
    expect(reason("python3 -c 1")).toBe("the program 'python3'");
    expect(reason("/bin/ls")).toBe("the program '/bin/ls'");
    expect(reason("LS_COLORS=x ls")).toContain("the program");
    expect(reason("")).toBe("an empty command");
    expect(reason("find . -exec cat \\{\\} \\;")).toContain("'-exec' (it runs programs)");
    expect(reason("find . -name x -delete")).toContain("'-delete' (it deletes files)");
    expect(reason("find . -fprint out")).toContain("writes files");
    expect(reason("find -L .")).toContain("follows symbolic links");
    expect(reason("find . -newer")).toContain("without its value");
    expect(reason("find . -frobnicate")).toContain("allowed: tests such as -name");
    expect(reason("ls -L docs")).toContain("follows symbolic links");
    expect(reason("cat --output=x a")).toContain("the cat option '--output=x'");
    expect(reason("cat -")).toContain("would read its input");
  });

  it("refuse paths that leave the workspace: .., absolute paths elsewhere, links pointing out", () => {
    expect(reason("cat ../x")).toBe("'..' in the path '../x'");
    expect(reason("ls docs/../..")).toContain("'..'");
    expect(reason("cat /etc/passwd")).toContain("the absolute path '/etc/passwd'");
    expect(reason("ls /workspaces")).toContain("absolute path");
    expect(reason("cat passwd")).toContain("points out of the workspace (to /etc/passwd)");
    expect(reason("ls docs/deep/up/etc")).toContain("points out of the workspace");
    expect(reason("find docs -newer passwd")).toContain("points out of the workspace");
    expect(reason("find /etc -name x")).toContain("absolute path");
  });

  it("explain in the refusal what is allowed", () => {
    expect(refusedTerminalMessage("a pipe '|'")).toBe(
      "Error: refused a pipe '|'. terminal runs only ls, find and cat, with their ordinary flags, on paths inside the workspace (relative, or under /workspace), without a shell: no pipes, redirection, ';', '&&', '$(...)', globs or other programs.",
    );
  });
});
