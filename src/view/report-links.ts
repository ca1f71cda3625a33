const PER_TASK_SECTION = /<section id="per-task">[\s\S]*?<\/section>/;
const ROW_START = /<tr([^>]*)><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td>/g;

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"');
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * report.html as the viewer serves it: each row of the per-task table links to the episode list filtered to
 * its task, scale and harness in this run. The report is written by `eval` (cells hold escaped text only),
 * so the rows are found by their first three cells; a report of another layout is served unchanged.
 */
export function linkReportRows(html: string, source: number): string {
  return html.replace(PER_TASK_SECTION, (section) =>
    section.replace(ROW_START, (row, attributes: string, task: string, scale: string, harness: string) => {
      const query = new URLSearchParams({
        "f.source": `=${source}`,
        // `=` asks the list for an exact match (a bare word matches as a part).
        "f.task": `=${decodeEntities(task)}`,
        "f.scale": `=${decodeEntities(scale)}`,
        "f.harness": `=${decodeEntities(harness).toLowerCase()}`,
      });
      const href = escapeAttribute(`/?${query.toString()}`);
      return `<tr${attributes}><td><a href="${href}">${task}</a></td><td>${scale}</td><td>${harness}</td>`;
    }),
  );
}
