import { randomUUID } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statfsSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Redactor } from "@content-scraper/runtime";
import { UsageError } from "../usage-error.js";

// Every file under the folder is opened without following a link (O_NOFOLLOW; 0 where the platform has none).
const noFollow = constants.O_NOFOLLOW ?? 0;
const flags = {
  folder: constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | noFollow,
  read: constants.O_RDONLY | noFollow,
  append: constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | noFollow,
  update: constants.O_RDWR | noFollow,
  create: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow,
};

/** The sub-folder of the per-creator checkpoints. */
export const checkpointsFolder = ".checkpoints";

/**
 * Free space below which the folder is refused before anything is sent: a few pages' lines and their checkpoints at
 * the concurrency a run uses (a page of posts is tens of KB). A run that started on a disk that is full since, or a
 * rerun on one still full, would otherwise buy pages it cannot write.
 */
export const minimumFreeBytes = 1024 * 1024;

/** An output-folder problem found before (or while) writing: exit status 2, naming the path and the reason. */
export class OutputFolderError extends UsageError {
  override name = "OutputFolderError";
}

/** How a folder is opened. */
export interface FolderOptions {
  /** The run that will hold the folder's lock: it also removes the temporary files a killed run left. */
  owner: boolean;
  /**
   * `--allow-shared-out`: accept an `--out` (or `<out>/<platform>`) that another user owns or that its group or others
   * can write, and create files 0660 and folders 0770 for the group that shares it (a fleet's machines), instead of
   * refusing it and creating them 0600 and 0700.
   */
  shared?: boolean | undefined;
}

/** An error's code and the system's words for it (`ENOSPC: no space left on device`), or its message. */
function errno(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (!code) return message ?? String(error);
  const words = message?.match(/^[A-Z0-9]+: ([^,]+)/)?.[1];
  return words ? `${code}: ${words}` : code;
}

/**
 * `mkdir -p`, one level at a time: Node's own recursive mkdir spins forever on a path it cannot create under a
 * folder that exists (`/proc/nope`).
 */
async function makeFolder(path: string, mode: number): Promise<void> {
  try {
    await mkdir(path, mode);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    if (code !== "ENOENT" || dirname(path) === path) throw error;
  }
  await makeFolder(dirname(path), mode);
  await mkdir(path, mode).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
}

/** A folder held open: its descriptor, its path (for messages and the change check), and what it was when checked. */
interface HeldFolder {
  fd: number;
  path: string;
  dev: number;
  ino: number;
  /**
   * Where its entries are reached: `/proc/self/fd/<fd>` on Linux, which resolves to the folder held whatever its path
   * has become since (Node has no `openat`), or its path elsewhere, checked before every open and rename.
   */
  base: string;
}

/** The `/proc/self/fd` path of a folder descriptor, where the system has one that leads to it. */
function descriptorPath(fd: number): string | undefined {
  const path = `/proc/self/fd/${fd}`;
  try {
    const [via, held] = [statSync(path), fstatSync(fd)];
    return via.dev === held.dev && via.ino === held.ino ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a folder another user could swap for a link between two of the export's writes: owned by another user, or
 * writable by its group or others (unless `shared`). Where the system has no user ids (Windows), nothing to check.
 */
function checkOwner(fd: number, path: string, shared: boolean): void {
  const uid = process.geteuid?.();
  if (uid === undefined || shared) return;
  const { uid: owner, mode } = fstatSync(fd);
  const advice = "use a folder of your own, or pass --allow-shared-out to accept it";
  if (owner !== uid) throw new OutputFolderError(`--out: ${path} belongs to another user (uid ${owner}), who could swap what it holds for links: ${advice}`);
  if ((mode & 0o022) !== 0) {
    const who = (mode & 0o020) !== 0 ? ((mode & 0o002) !== 0 ? "its group and others" : "its group") : "others";
    throw new OutputFolderError(`--out: ${path} is writable by ${who} (mode ${(mode & 0o7777).toString(8)}), who could swap what it holds for links: ${advice} (or chmod go-w it)`);
  }
}

/** Creates (if need be) and opens the folder `name` of the held folder at `parent`, never through a link. */
function holdFolder(parent: string, name: string, path: string, mode: number, shared: boolean): HeldFolder {
  try {
    mkdirSync(`${parent}/${name}`, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new OutputFolderError(`--out: cannot create ${path} (${errno(error)})`);
  }
  let fd: number;
  try {
    fd = openSync(`${parent}/${name}`, flags.folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR") throw new OutputFolderError(`--out: ${path} is not a folder (a link or a file): the export writes only into a folder of its own`);
    throw new OutputFolderError(`--out: cannot open ${path} (${errno(error)})`);
  }
  try {
    checkOwner(fd, path, shared);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const { dev, ino } = fstatSync(fd);
  return { fd, path, dev, ino, base: descriptorPath(fd) ?? path };
}

/**
 * Writes all of `text`: a short write (a disk filling up) is continued, and the next one then fails with the reason.
 * `progress.written` counts the bytes that landed, for a caller that takes them back on failure.
 */
function writeWhole(fd: number, text: string, progress: { written: number }): void {
  const length = Buffer.byteLength(text);
  progress.written = writeSync(fd, text);
  if (progress.written === length) return;
  const bytes = Buffer.from(text);
  while (progress.written < length) progress.written += writeSync(fd, bytes, progress.written);
}

/**
 * A file the folder holds open for appending: every write is redacted; `write` answers the bytes it added. Its
 * operations, like `read`, are synchronous under their promises: a page's lines or a checkpoint is one write into the
 * page cache (tens of µs), where the promise API's round trip through the thread pool, twice per page and again for
 * every journal read at the end, cost an export 8-10% of its time against a loop writing the same lines (pnpm bench).
 * A short write is continued, never counted as whole; a write that fails takes back what it wrote of itself.
 */
export interface AppendFile {
  write(text: string): Promise<number>;
  /** The file's size now, whoever wrote it. */
  size(): Promise<number>;
  /** The file's first `bytes` (fewer if it is shorter): what lies before a point appends never move. */
  head(bytes: number): Promise<Buffer>;
  /** Cuts the file back to `bytes`. */
  cut(bytes: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A platform's output folder, `<out>/<platform>`, and the only door to it. Opening it checks it before any call: its
 * owner and mode (no other user can swap what it holds), that it can be created and written with room to write, and
 * that it holds nothing but regular files (and the checkpoints' folder). It then holds the folder and its checkpoints'
 * folder open, and reaches every file through them: a folder moved, replaced or swapped for a link while the export
 * runs receives nothing more, and the next open or rename finds the change and stops the run. Every file is opened
 * with O_NOFOLLOW, written through the redactor, created 0600 (0660 shared), and replaced (the manifest, a long
 * checkpoint journal) by writing a new file and renaming it over the old. A write that fails (a full disk, a quota,
 * a read-only or failing device) is an `OutputFolderError` naming the file, and the folder keeps it as `failed`.
 */
export class OutputFolder {
  readonly #folder: HeldFolder;
  readonly #checkpoints: HeldFolder;
  readonly #fileMode: number;
  #closed = false;
  #failed: OutputFolderError | undefined;
  #check: (() => void) | undefined;

  private constructor(
    /** The folder's absolute path. */
    readonly path: string,
    readonly redactor: Redactor,
    held: { folder: HeldFolder; checkpoints: HeldFolder; fileMode: number },
  ) {
    this.#folder = held.folder;
    this.#checkpoints = held.checkpoints;
    this.#fileMode = held.fileMode;
  }

  /**
   * The folder of `platform` under `out`, created if need be and checked (an `OutputFolderError` otherwise). The run
   * that will hold its lock (`owner`) also removes the temporary files a killed run left.
   */
  static async open(out: string, platform: string, redactor: Redactor, { owner, shared = false }: FolderOptions): Promise<OutputFolder> {
    const root = resolve(out);
    const [fileMode, folderMode] = shared ? [0o660, 0o770] : [0o600, 0o700];
    await makeFolder(root, folderMode).catch((error) => {
      throw new OutputFolderError(`--out: cannot create ${root} (${errno(error)})`);
    });
    let rootFd: number;
    try {
      // `--out` itself may be a link the user made (`~/exports` to another disk): it is followed, once, here.
      rootFd = openSync(root, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
    } catch (error) {
      throw new OutputFolderError(`--out: cannot open ${root} (${errno(error)})`);
    }
    let folder: HeldFolder | undefined;
    let checkpoints: HeldFolder;
    try {
      checkOwner(rootFd, root, shared);
      folder = holdFolder(descriptorPath(rootFd) ?? root, platform, join(root, platform), folderMode, shared);
      checkpoints = holdFolder(folder.base, checkpointsFolder, join(folder.path, checkpointsFolder), folderMode, shared);
    } catch (error) {
      if (folder) closeSync(folder.fd);
      throw error;
    } finally {
      closeSync(rootFd);
    }
    const opened = new OutputFolder(folder.path, redactor, { folder, checkpoints, fileMode });
    try {
      opened.#checkEntries(owner);
      opened.#checkSpace();
    } catch (error) {
      await opened.close();
      throw error;
    }
    return opened;
  }

  /** The absolute path of a file of the folder. */
  file(name: string): string {
    return join(this.path, name);
  }

  /** The first write that failed (a full disk…): the run stops once it is set. */
  get failed(): OutputFolderError | undefined {
    return this.#failed;
  }

  /**
   * Runs `check` before every write from now on, in the same synchronous step as the write: it throws to refuse it. A
   * fleet's worker checks that the folder's lock is still its export's.
   */
  fence(check: () => void): void {
    this.#check = check;
  }

  /** The file's size, or `undefined` when it does not exist. */
  async size(name: string): Promise<number | undefined> {
    const stats = this.#run("read", name, (at) => lstatSync(at, { throwIfNoEntry: false }));
    if (stats && !stats.isFile()) throw new OutputFolderError(`${this.file(name)} is not a regular file (a link?): remove it, the export writes only regular files there`);
    return stats?.size;
  }

  /** The file's text, or `undefined` when it does not exist. */
  async read(name: string): Promise<string | undefined> {
    return this.readNow(name);
  }

  /** `read`, in this synchronous step. */
  readNow(name: string): string | undefined {
    let fd: number;
    try {
      fd = openSync(this.#at(name), flags.read);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw this.#error("read", name, error);
    }
    try {
      return readFileSync(fd, "utf8");
    } catch (error) {
      throw this.#error("read", name, error);
    } finally {
      closeSync(fd);
    }
  }

  /** Opens the file for appending (created if need be). */
  async append(name: string): Promise<AppendFile> {
    let fd: number | undefined = this.#run("write", name, (at) => {
      this.#check?.();
      return openSync(at, flags.append, this.#fileMode);
    });
    // A descriptor's number is reused once it is closed: past `close`, nothing may reach another file through it.
    const held = () => {
      if (fd === undefined) throw new OutputFolderError(`cannot write ${this.file(name)} (closed)`);
      return fd;
    };
    const write = (text: string) => {
      const safe = this.redactor.text(text);
      const progress = { written: 0 };
      try {
        this.#check?.();
        writeWhole(held(), safe, progress);
      } catch (error) {
        // What landed of this write is taken back, so that the file ends on a whole line (a full disk frees nothing).
        try {
          if (progress.written > 0 && fd !== undefined) ftruncateSync(fd, fstatSync(fd).size - progress.written);
        } catch {}
        throw this.#error("write", name, error);
      }
      return progress.written;
    };
    return {
      write: async (text) => write(text),
      size: async () => fstatSync(held()).size,
      head: async (bytes) => {
        const buffer = Buffer.alloc(bytes);
        let read = 0;
        while (read < bytes) {
          const got = readSync(held(), buffer, read, bytes - read, read);
          if (got === 0) break;
          read += got;
        }
        return buffer.subarray(0, read);
      },
      cut: async (bytes) => {
        try {
          this.#check?.();
          ftruncateSync(held(), bytes);
        } catch (error) {
          throw this.#error("write", name, error);
        }
      },
      close: async () => {
        if (fd === undefined) return;
        closeSync(fd);
        fd = undefined;
      },
    };
  }

  /** Cuts the file back to `bytes`. */
  async truncate(name: string, bytes: number): Promise<void> {
    const fd = this.#run("write", name, (at) => openSync(at, flags.update));
    try {
      this.#check?.();
      ftruncateSync(fd, bytes);
    } catch (error) {
      throw this.#error("write", name, error);
    } finally {
      closeSync(fd);
    }
  }

  /** Replaces the file's content at once: a new file, renamed over the old (a reader sees one or the other, whole). */
  async replace(name: string, text: string): Promise<void> {
    const temporary = this.#temporary(name, text);
    try {
      this.#run("write", name, (at) => {
        this.#check?.();
        renameSync(this.#at(temporary), at);
      });
    } catch (error) {
      this.#discard(temporary);
      throw error;
    }
  }

  /**
   * Creates the file with `text` only if it does not exist: a new file, linked to the name (the link fails when the
   * name is taken, and the name never shows a half-written file). Answers whether it was created.
   */
  async createExclusive(name: string, text: string): Promise<boolean> {
    const temporary = this.#temporary(name, text);
    try {
      this.#check?.();
      linkSync(this.#at(temporary), this.#at(name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw this.#error("write", name, error);
    } finally {
      this.#discard(temporary);
    }
  }

  /** Removes the file; answers whether it was there. */
  async remove(name: string): Promise<boolean> {
    try {
      this.#check?.();
      unlinkSync(this.#at(name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw this.#error("write", name, error);
    }
  }

  /** The names of the files in a sub-folder (`checkpointsFolder`). */
  async list(subfolder: string): Promise<string[]> {
    return this.#run("read", subfolder, (at) => readdirSync(at), `${subfolder}/`);
  }

  /** Lets go of the folder: nothing can reach it through this object any more. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#folder.fd);
    closeSync(this.#checkpoints.fd);
  }

  /** A new file beside `name` holding `text` (redacted), never one that existed: answers its name. */
  #temporary(name: string, text: string): string {
    const temporary = `${name}.${randomUUID()}.tmp`;
    const fd = this.#run("write", name, (at) => {
      this.#check?.();
      return openSync(at, flags.create, this.#fileMode);
    }, temporary);
    try {
      writeWhole(fd, this.redactor.text(text), { written: 0 });
    } catch (error) {
      closeSync(fd);
      this.#discard(temporary);
      throw this.#error("write", name, error);
    }
    closeSync(fd);
    return temporary;
  }

  /** Removes a temporary file, whatever is left of it (a write that failed half-way, a link that was refused). */
  #discard(temporary: string): void {
    try {
      unlinkSync(this.#at(temporary));
    } catch {}
  }

  /**
   * Where a file is reached (`name`, or `.checkpoints/name`: through the held folder it is in), once the held folders
   * are checked unchanged.
   */
  #at(name: string): string {
    if (this.#closed) throw new OutputFolderError(`${this.path}: the export let go of this folder`);
    const prefix = `${checkpointsFolder}/`;
    const [folder, leaf] = name.startsWith(prefix) ? [this.#checkpoints, name.slice(prefix.length)] : [this.#folder, name];
    this.#unchanged(this.#folder);
    if (folder !== this.#folder) this.#unchanged(folder);
    return leaf === "" ? folder.base : `${folder.base}/${leaf}`;
  }

  /** Stops the run if a held folder's path no longer leads to it (moved, replaced, or a link now). */
  #unchanged(folder: HeldFolder): void {
    const now = lstatSync(folder.path, { throwIfNoEntry: false });
    if (now?.isDirectory() && now.dev === folder.dev && now.ino === folder.ino) return;
    const error = new OutputFolderError(`${folder.path} changed while the export ran (moved, replaced or made a link): nothing more is written there`);
    this.#failed ??= error;
    throw error;
  }

  /** `operation` on the file `name` (reached as `at`), its failure an `OutputFolderError` naming the file. */
  #run<T>(action: "read" | "write", name: string, operation: (at: string) => T, reached = name): T {
    try {
      return operation(this.#at(reached));
    } catch (error) {
      throw this.#error(action, name, error);
    }
  }

  /** Refuses entries that are not regular files (links above all); `clean` removes the temporary files of a killed run. */
  #checkEntries(clean: boolean): void {
    for (const folder of [this.#folder, this.#checkpoints]) {
      for (const entry of readdirSync(folder.base, { withFileTypes: true })) {
        if (folder === this.#folder && entry.name === checkpointsFolder && entry.isDirectory()) continue;
        const path = join(folder.path, entry.name);
        if (!entry.isFile()) throw new OutputFolderError(`--out: ${path} is not a regular file (a link?): remove it, the export writes only regular files there`);
        if (!clean || !entry.name.endsWith(".tmp")) continue;
        try {
          unlinkSync(`${folder.base}/${entry.name}`);
        } catch {}
      }
    }
  }

  /** Refuses a folder whose filesystem has less than `minimumFreeBytes` free. */
  #checkSpace(): void {
    let free: number;
    try {
      const { bavail, bsize } = statfsSync(this.#folder.base);
      free = bavail * bsize;
    } catch {
      // A filesystem that does not tell: its first write that fails stops the run instead.
      return;
    }
    if (free >= minimumFreeBytes) return;
    throw new OutputFolderError(
      `--out: ${this.path} has ${Math.floor(free / 1024)} KiB free, less than the ${minimumFreeBytes / 1024 / 1024} MiB an export needs to write its pages and checkpoints (ENOSPC: no space left on device): free some space, then run the same command again`,
    );
  }

  /** An operation's failure as an `OutputFolderError` naming the file (kept as the folder's `failed`); others as they are. */
  #error(action: "read" | "write", name: string, error: unknown): unknown {
    if (error instanceof OutputFolderError || !(error as NodeJS.ErrnoException)?.code) return error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ELOOP" ? "it is a link, which the export does not follow" : errno(error);
    const failure = new OutputFolderError(`cannot ${action} ${this.file(name)} (${why})`);
    this.#failed ??= failure;
    return failure;
  }
}
