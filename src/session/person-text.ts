/**
 * Bounds on what a person writes about a session, shared by the record's schema and the page
 * (which must not load the schema): a title, a note, and the part of a task a list keeps.
 */

/** Characters of a session's title. */
export const TITLE_CHARS = 200;
/** Characters of a session's note. */
export const NOTE_CHARS = 4000;
/** Characters of a task the sessions list keeps for searching. */
export const TASK_LINE_CHARS = 300;
