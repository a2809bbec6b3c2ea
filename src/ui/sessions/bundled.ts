/**
 * The recorded sessions the app ships: the lessons (lessons/*.session.json, in path order, with
 * the titles and step captions of src/session/lessons.ts) and the examples
 * (examples/*.session.json). Each file is its own lazy chunk: listing them costs only these
 * few lines of metadata, and a session's text is fetched when someone opens it. The text goes
 * to the worker like any other session file: bundled is not the same as trusted.
 */
import { LESSONS, type Lesson } from '../../session/lessons.ts';

export type BundledGroup = 'lesson' | 'example';

export interface BundledSession {
  /** Stable key: `lesson:<id>` or `example:<name>`. */
  readonly key: string;
  readonly group: BundledGroup;
  readonly title: string;
  /** One or two sentences: what to watch for. */
  readonly caption: string;
  /** The lesson it belongs to (titles, intro, one caption per step). */
  readonly lesson?: Lesson;
  /** Fetches the session file's text. */
  load(): Promise<string>;
}

type Loaders = Record<string, () => Promise<string>>;

// Vite turns each matching file into a lazy chunk; `?raw` keeps the text as written.
const EXAMPLE_FILES = import.meta.glob('/examples/*.session.json', {
  query: '?raw',
  import: 'default',
  eager: false,
}) as Loaders;
const LESSON_FILES = import.meta.glob('/lessons/*.session.json', {
  query: '?raw',
  import: 'default',
  eager: false,
}) as Loaders;

/** What the examples show (examples/*.session.json, made by scripts/make-examples.ts). */
const EXAMPLE_TEXT: Readonly<Record<string, { title: string; caption: string }>> = {
  'drifted-edit': {
    title: 'A drifted edit',
    caption:
      'Three steps on tiny-utils: a read, an edit whose old_str was re-typed with the wrong indentation (the ladder still places it), done.',
  },
  'thirty-steps': {
    title: 'Thirty steps on tiny-utils',
    caption:
      'Exploring, the fix, a scratch note moved and deleted, a hash-anchored edit, a reply without a tool call, done.',
  },
};

/** `…/name.session.json` → `name`. */
export function fileStem(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.session\.json$/, '');
}

/** `thirty-steps` → `Thirty steps`: the title of an example this list has no words for. */
function titleFromName(name: string): string {
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The lessons whose session file is bundled, in path order. */
export function bundledLessons(files: Loaders = LESSON_FILES, lessons: readonly Lesson[] = LESSONS): BundledSession[] {
  const byId = new Map(Object.entries(files).map(([path, load]) => [fileStem(path), load]));
  return [...lessons]
    .sort((a, b) => a.order - b.order)
    .flatMap((lesson) => {
      const load = byId.get(lesson.id);
      return load
        ? [
            {
              key: `lesson:${lesson.id}`,
              group: 'lesson' as const,
              title: lesson.title,
              caption: lesson.intro,
              lesson,
              load,
            },
          ]
        : [];
    });
}

/** The bundled examples, by name. */
export function bundledExamples(files: Loaders = EXAMPLE_FILES): BundledSession[] {
  return (
    Object.entries(files)
      .map(([path, load]) => {
        const name = fileStem(path);
        const text = EXAMPLE_TEXT[name] ?? { title: titleFromName(name), caption: '' };
        return { key: `example:${name}`, group: 'example' as const, title: text.title, caption: text.caption, load };
      })
      // Code-point order: keys are ASCII file names, and a collator's first use costs tens of ms at startup.
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  );
}
