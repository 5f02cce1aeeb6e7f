import path from 'node:path';
import type { Archive } from '../schema.js';
import { writeExclusive } from '../../archive/writer.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';

export interface ReportFiles {
  markdown: string;
  html: string;
}

/** Both reports beside the archive, under its name (`.md`, `.html`); never over an existing file. */
export async function writeReports(archivePath: string, archive: Archive): Promise<ReportFiles> {
  const dir = path.dirname(archivePath);
  const base = path.basename(archivePath, '.json');
  const markdown = await writeExclusive(dir, base, renderMarkdown(archive), '.md');
  const html = await writeExclusive(dir, base, await renderHtml(archive), '.html');
  return { markdown, html };
}
