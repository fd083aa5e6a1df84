/**
 * A tiny .cpuprofile summariser (the format `node --cpu-prof` writes): the top self-time
 * frames, time by area (our src/, each package, node internals, GC), and the inclusive time
 * of our own functions, which is where a change in src/ would act.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from '../../test/testkit/process.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Frame {
  frame: string;
  area: string;
  /** Share of the busy (non-idle) time, %. */
  pct: number;
  ms: number;
}

export interface ProfileSummary {
  label: string;
  file: string;
  /** CPU time sampled busy in the window, ms. */
  busyMs: number;
  /** Length of the window, ms. */
  windowMs: number;
  idlePct: number;
  topSelf: Frame[];
  byArea: { area: string; pct: number }[];
  /** Share of busy samples with the area anywhere on the stack (callees included). */
  inclusiveByArea: { area: string; pct: number }[];
  /** Our functions (src/) by inclusive time: the function and everything it called. */
  oursInclusive: Frame[];
}

/** Now on the clock profiles use (monotonic µs, shared by every process on Linux). */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** A window of the profile to summarise, in monotonicMicros() time. */
export interface Window {
  fromUs: number;
  toUs: number;
}

function location(cf: CallFrame): string {
  if (!cf.url) return '';
  let path = cf.url;
  try {
    if (path.startsWith('file://')) path = fileURLToPath(path);
  } catch {
    // keep the url
  }
  if (path.startsWith('/')) path = relative(root, path);
  // tsx-compiled modules report line 1 for every function; a line is only useful elsewhere.
  return cf.lineNumber > 0 ? `${path}:${cf.lineNumber + 1}` : path;
}

/** src/..., a package name, node:internal, or (native) for V8's own buckets. */
function areaOf(cf: CallFrame): string {
  const url = cf.url;
  if (!url) return cf.functionName.startsWith('(') ? cf.functionName : '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const loc = location(cf);
  if (loc.startsWith('src/')) return loc.split(':')[0]!;
  return loc.split(':')[0] ?? '(other)';
}

const name = (cf: CallFrame) => `${cf.functionName || '(anonymous)'} ${location(cf)}`.trim();

/**
 * Summarises one .cpuprofile file, only the samples within `window` when given (the load,
 * without the process's start-up).
 */
export function summarizeProfile(
  file: string,
  label: string,
  window?: Window,
  top = 15,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  let t = profile.startTime;
  const times = profile.timeDeltas.map((d) => (t += d));
  const inWindow = (i: number) =>
    !window || (times[i]! >= window.fromUs && times[i]! <= window.toUs);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, { ms: number; area: string }>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  const areasInclusive = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    if (!inWindow(i)) return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    const cf = node.callFrame;
    if (cf.functionName === '(idle)') {
      idle += ms;
      return;
    }
    busy += ms;
    const key = name(cf);
    const area = areaOf(cf);
    const entry = self.get(key) ?? { ms: 0, area };
    entry.ms += ms;
    self.set(key, entry);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    // Inclusive time of our functions and of each area: each on the stack once.
    const seen = new Set<string>();
    const seenAreas = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      const a = areaOf(f);
      if (!seenAreas.has(a)) {
        seenAreas.add(a);
        areasInclusive.set(a, (areasInclusive.get(a) ?? 0) + ms);
      }
      if (!location(f).startsWith('src/')) continue;
      const k = name(f);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + ms);
    }
  });
  const pct = (ms: number) => (busy > 0 ? (100 * ms) / busy : 0);
  return {
    label,
    file: relative(root, file),
    busyMs: busy,
    windowMs: window ? (window.toUs - window.fromUs) / 1000 : busy + idle,
    idlePct: busy + idle > 0 ? (100 * idle) / (busy + idle) : 0,
    topSelf: [...self.entries()]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, top)
      .map(([frame, v]) => ({ frame, area: v.area, ms: v.ms, pct: pct(v.ms) })),
    byArea: [...areas.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([area, ms]) => ({ area, pct: pct(ms) })),
    inclusiveByArea: [...areasInclusive.entries()]
      .filter(([area]) => !area.startsWith('(') && area !== 'node:internal')
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([area, ms]) => ({ area, pct: pct(ms) })),
    oursInclusive: [...inclusive.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([frame, ms]) => ({ frame, area: 'src', ms, pct: pct(ms) })),
  };
}

/** The summary as markdown. */
export function profileMarkdown(p: ProfileSummary): string {
  const lines = [
    `**${p.label}** — \`${p.file}\`: ${(p.windowMs / 1000).toFixed(1)} s under load, main thread ${p.busyMs.toFixed(0)} ms busy (${p.idlePct.toFixed(0)}% idle); shares below are of the busy time.`,
    '',
    '| self % | self ms | frame | area |',
    '|---:|---:|---|---|',
    ...p.topSelf.map(
      (f) =>
        `| ${f.pct.toFixed(1)} | ${f.ms.toFixed(0)} | \`${f.frame.replace(/\|/g, '\\|')}\` | ${f.area} |`,
    ),
    '',
    `Self time by area: ${p.byArea.map((a) => `${a.area} ${a.pct.toFixed(1)}%`).join(', ')}.`,
    '',
    `On the stack (inclusive; async continuations start a new stack, so callers of an await are not counted): ${p.inclusiveByArea.map((a) => `${a.area} ${a.pct.toFixed(1)}%`).join(', ')}.`,
    '',
    `Our functions (src/) by inclusive time: ${p.oursInclusive.length ? p.oursInclusive.map((f) => `\`${f.frame}\` ${f.pct.toFixed(1)}%`).join(', ') : 'none sampled'}`,
  ];
  return lines.join('\n');
}
