/**
 * What a file-system error code means, in words an operator can act on: the one table behind every
 * storage message (a failed write, a data directory that cannot be used).
 */
const WORDS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'read-only file system',
  EIO: 'the disk reported an input/output error',
  EACCES: 'no permission to write',
  EPERM: 'no permission to write',
  ENOENT: 'the file system does not allow it there',
  ENOTDIR: 'a part of the path is a file',
  EEXIST: 'a file of that name exists',
};

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code;

const wordsOf = (error: unknown): string => {
  const code = codeOf(error);
  return (code && WORDS[code]) ?? (error instanceof Error ? error.message : String(error));
};

/** The cause and its code: "read-only file system (EROFS)". */
export function describeFsError(error: unknown): string {
  const code = codeOf(error);
  return code ? `${wordsOf(error)} (${code})` : wordsOf(error);
}

/** Why a write failed, for the operator: the cause, the code and the file. */
export function reasonOf(error: unknown, fallbackPath: string): string {
  const { code, path } = (error ?? {}) as NodeJS.ErrnoException;
  return `${wordsOf(error)} (${code ?? 'error'} writing ${path ?? fallbackPath})`;
}
