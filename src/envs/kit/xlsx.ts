import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * A small deterministic .xlsx writer (and a reader for what it writes): a deflated ZIP with fixed
 * timestamps, shared strings, merged cells and column widths. Spreadsheet tools (openpyxl, Excel,
 * LibreOffice) open the files; verifiers read them back with `readXlsx`.
 */
export type XlsxValue = string | number | null | undefined;

export interface XlsxSheet {
  name: string;
  /** Rows from row 1; `null` / `undefined` / "" leave a cell empty. */
  rows: XlsxValue[][];
  /** Merged ranges like "A1:F1"; only the top-left cell of a range should hold a value. */
  merges?: string[];
  /** Column widths in characters, from column A. */
  widths?: number[];
  /** Row numbers (1-based) whose cells are bold (titles, headers). */
  boldRows?: number[];
}

/** "A" for 0, "AB" for 27. */
export function columnLetter(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";

function sheetXml(sheet: XlsxSheet, stringIndex: (text: string) => number): string {
  const bold = new Set(sheet.boldRows ?? []);
  const rows = sheet.rows.map((cells, rowIndex) => {
    const r = rowIndex + 1;
    const style = bold.has(r) ? ' s="1"' : "";
    const body = cells
      .map((value, col) => {
        if (value === null || value === undefined || value === "") return "";
        const ref = `${columnLetter(col)}${r}`;
        if (typeof value === "number") return `<c r="${ref}"${style}><v>${value}</v></c>`;
        return `<c r="${ref}"${style} t="s"><v>${stringIndex(value)}</v></c>`;
      })
      .join("");
    return body === "" ? "" : `<row r="${r}">${body}</row>`;
  });
  const cols = (sheet.widths ?? [])
    .map((width, col) => `<col min="${col + 1}" max="${col + 1}" width="${width}" customWidth="1"/>`)
    .join("");
  const merges = sheet.merges ?? [];
  return (
    `${HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    (cols ? `<cols>${cols}</cols>` : "") +
    `<sheetData>${rows.join("")}</sheetData>` +
    (merges.length
      ? `<mergeCells count="${merges.length}">${merges.map((ref) => `<mergeCell ref="${ref}"/>`).join("")}</mergeCells>`
      : "") +
    "</worksheet>"
  );
}

const STYLES =
  `${HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  "</styleSheet>";

/** The workbook's parts, in ZIP order. */
function workbookParts(sheets: readonly XlsxSheet[]): Array<[string, string]> {
  const strings: string[] = [];
  const indexOf = new Map<string, number>();
  const stringIndex = (text: string): number => {
    let index = indexOf.get(text);
    if (index === undefined) {
      index = strings.length;
      strings.push(text);
      indexOf.set(text, index);
    }
    return index;
  };
  const sheetParts = sheets.map((sheet, n): [string, string] => [
    `xl/worksheets/sheet${n + 1}.xml`,
    sheetXml(sheet, stringIndex),
  ]);
  const sheetType = "application/vnd.openxmlformats-officedocument.spreadsheetml";
  const contentTypes =
    `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    `<Override PartName="/xl/workbook.xml" ContentType="${sheetType}.sheet.main+xml"/>` +
    sheets
      .map(
        (_, n) =>
          `<Override PartName="/xl/worksheets/sheet${n + 1}.xml" ContentType="${sheetType}.worksheet+xml"/>`,
      )
      .join("") +
    `<Override PartName="/xl/styles.xml" ContentType="${sheetType}.styles+xml"/>` +
    `<Override PartName="/xl/sharedStrings.xml" ContentType="${sheetType}.sharedStrings+xml"/>` +
    "</Types>";
  const rootRels =
    `${HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
    `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
  const workbook =
    `${HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>` +
    sheets
      .map((sheet, n) => `<sheet name="${escapeXml(sheet.name)}" sheetId="${n + 1}" r:id="rId${n + 1}"/>`)
      .join("") +
    "</sheets></workbook>";
  const n = sheets.length;
  const workbookRels =
    `${HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
    sheets
      .map(
        (_, i) =>
          `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
      )
      .join("") +
    `<Relationship Id="rId${n + 1}" Type="${REL_NS}/styles" Target="styles.xml"/>` +
    `<Relationship Id="rId${n + 2}" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>` +
    "</Relationships>";
  const shared =
    `${HEAD}<sst xmlns="${MAIN_NS}" count="${strings.length}" uniqueCount="${strings.length}">` +
    strings.map((text) => `<si><t xml:space="preserve">${escapeXml(text)}</t></si>`).join("") +
    "</sst>";
  return [
    ["[Content_Types].xml", contentTypes],
    ["_rels/.rels", rootRels],
    ["xl/workbook.xml", workbook],
    ["xl/_rels/workbook.xml.rels", workbookRels],
    ["xl/styles.xml", STYLES],
    ["xl/sharedStrings.xml", shared],
    ...sheetParts,
  ];
}

/** 2020-01-01 00:00 in DOS time and date: every entry carries it, so equal sheets give equal bytes. */
const DOS_TIME = 0;
const DOS_DATE = ((2020 - 1980) << 9) | (1 << 5) | 1;

/** A ZIP archive of deflated entries with fixed timestamps. */
export function zipEntries(entries: ReadonlyArray<readonly [string, Uint8Array]>): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = Buffer.from(name, "utf8");
    const packed = deflateRawSync(data, { level: 6 });
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    local.copy(central, 6, 4, 28); // version needed .. name length
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** The bytes of an .xlsx workbook holding these sheets, identical for identical input. */
export function writeXlsx(sheets: readonly XlsxSheet[]): Uint8Array {
  if (sheets.length === 0) throw new Error("a workbook needs at least one sheet");
  return zipEntries(workbookParts(sheets).map(([name, xml]) => [name, Buffer.from(xml, "utf8")]));
}

/** The entries of a ZIP archive (stored or deflated) by name. */
export function unzipEntries(bytes: Uint8Array): Map<string, Buffer> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const endAt = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error("not a ZIP archive");
  const count = buffer.readUInt16LE(endAt + 10);
  let at = buffer.readUInt32LE(endAt + 16);
  const entries = new Map<string, Buffer>();
  for (let n = 0; n < count; n += 1) {
    const method = buffer.readUInt16LE(at + 10);
    const size = buffer.readUInt32LE(at + 20);
    const nameLength = buffer.readUInt16LE(at + 28);
    const skip = nameLength + buffer.readUInt16LE(at + 30) + buffer.readUInt16LE(at + 32);
    const name = buffer.toString("utf8", at + 46, at + 46 + nameLength);
    const local = buffer.readUInt32LE(at + 42);
    const dataAt = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const data = buffer.subarray(dataAt, dataAt + size);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + skip;
  }
  return entries;
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

function sheetRows(xml: string, shared: readonly string[]): XlsxValue[][] {
  const rows: XlsxValue[][] = [];
  for (const cell of xml.matchAll(/<c r="([A-Z]+)(\d+)"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const [, letters, rowText, attributes, inner = ""] = cell;
    const type = /\bt="(\w+)"/.exec(attributes!)?.[1];
    const raw = /<v>([\s\S]*?)<\/v>/.exec(inner)?.[1];
    const inline = [...inner.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((m) => m[1]).join("");
    let value: XlsxValue = null;
    if (type === "s") value = shared[Number(raw)] ?? null;
    else if (type === "inlineStr") value = unescapeXml(inline);
    else if (type === "str") value = unescapeXml(raw ?? "");
    else if (raw !== undefined) value = Number(raw);
    const row = (rows[Number(rowText) - 1] ??= []);
    row[columnIndex(letters!)] = value;
  }
  return Array.from(rows, (row) => Array.from(row ?? [], (value) => value ?? null));
}

/** Reads a workbook's sheets (names in tab order, rows from row 1, empty cells null); merged ranges are listed, not expanded. */
export function readXlsx(bytes: Uint8Array): Array<{ name: string; rows: XlsxValue[][]; merges: string[] }> {
  const entries = unzipEntries(bytes);
  const text = (name: string): string => entries.get(name)?.toString("utf8") ?? "";
  const shared = [...text("xl/sharedStrings.xml").matchAll(/<si>([\s\S]*?)<\/si>/g)].map((si) =>
    unescapeXml([...si[1]!.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((m) => m[1]).join("")),
  );
  const targets = new Map(
    [
      ...text("xl/_rels/workbook.xml.rels").matchAll(/<Relationship [^>]*?Id="(\w+)"[^>]*?Target="([^"]+)"/g),
    ].map((m) => [m[1]!, m[2]!.replace(/^\/?(xl\/)?/, "xl/")]),
  );
  return [...text("xl/workbook.xml").matchAll(/<sheet [^>]*?name="([^"]*)"[^>]*?r:id="(\w+)"/g)].map((m) => ({
    name: unescapeXml(m[1]!),
    rows: sheetRows(text(targets.get(m[2]!) ?? ""), shared),
    merges: [...text(targets.get(m[2]!) ?? "").matchAll(/<mergeCell ref="([A-Z]+\d+:[A-Z]+\d+)"/g)].map(
      (c) => c[1]!,
    ),
  }));
}
