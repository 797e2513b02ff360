import { randomUUID } from "node:crypto";
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readFileSync, writeSync } from "node:fs";
import { link, lstat, mkdir, open, readdir, rename, unlink } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Redactor } from "@content-scraper/runtime";
import { UsageError } from "../usage-error.js";

// Every file under the folder is opened without following a link (O_NOFOLLOW; 0 where the platform has none).
const noFollow = constants.O_NOFOLLOW ?? 0;
const flags = {
  read: constants.O_RDONLY | noFollow,
  append: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | noFollow,
  update: constants.O_RDWR | noFollow,
  create: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow,
};

/** The sub-folder of the per-creator checkpoints. */
export const checkpointsFolder = ".checkpoints";

/** An output-folder problem found before (or while) writing: exit status 2, naming the path and the reason. */
export class OutputFolderError extends UsageError {
  override name = "OutputFolderError";
}

/**
 * `mkdir -p`, one level at a time: Node's own recursive mkdir spins forever on a path it cannot create under a
 * folder that exists (`/proc/nope`).
 */
async function makeFolder(path: string): Promise<void> {
  try {
    await mkdir(path);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    if (code !== "ENOENT" || dirname(path) === path) throw error;
  }
  await makeFolder(dirname(path));
  await mkdir(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
}

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/**
 * A file the folder holds open for appending: every write is redacted; `write` answers the bytes it added. Its
 * operations, like `read`, are synchronous under their promises: a page's lines or a checkpoint is one write into the
 * page cache (tens of µs), where the promise API's round trip through the thread pool, twice per page and again for
 * every journal read at the end, cost an export 8-10% of its time against a loop writing the same lines (pnpm bench).
 * A short write is continued, never counted as whole.
 */
export interface AppendFile {
  write(text: string): Promise<number>;
  /** The file's size now, whoever wrote it. */
  size(): Promise<number>;
  /** Cuts the file back to `bytes`. */
  cut(bytes: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A platform's output folder, `<out>/<platform>`, and the only door to it. Opening it checks it before any call: it
 * can be created and written, and it holds nothing but regular files (and the checkpoints' folder), so that no link
 * planted in it makes the export truncate or overwrite a file elsewhere. Every file is then opened with O_NOFOLLOW,
 * written through the redactor, and replaced (the manifest, a long checkpoint journal) by writing a new file and
 * renaming it over the old.
 */
export class OutputFolder {
  private constructor(
    /** The folder's absolute path. */
    readonly path: string,
    readonly redactor: Redactor,
  ) {}

  /**
   * The folder of `platform` under `out`, created if need be and checked (an `OutputFolderError` otherwise). The run
   * that will hold its lock (`owner`) also removes the temporary files a killed run left.
   */
  static async open(out: string, platform: string, redactor: Redactor, { owner }: { owner: boolean }): Promise<OutputFolder> {
    const root = resolve(out);
    await makeFolder(root).catch((error) => {
      throw new OutputFolderError(`--out: cannot create ${root} (${errno(error)})`);
    });
    const folder = new OutputFolder(join(root, platform), redactor);
    await folder.#directory(folder.path);
    await folder.#directory(join(folder.path, checkpointsFolder));
    await folder.#checkEntries(owner);
    return folder;
  }

  /** The absolute path of a file of the folder. */
  file(name: string): string {
    return join(this.path, name);
  }

  /** The file's size, or `undefined` when it does not exist. */
  async size(name: string): Promise<number | undefined> {
    const stats = await lstat(this.file(name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw this.#error(name, error);
    });
    if (stats && !stats.isFile()) throw new OutputFolderError(`${this.file(name)} is not a regular file (a link?): remove it, the export writes only regular files there`);
    return stats?.size;
  }

  /** The file's text, or `undefined` when it does not exist. */
  async read(name: string): Promise<string | undefined> {
    let fd: number;
    try {
      fd = openSync(this.file(name), flags.read);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw this.#error(name, error);
    }
    try {
      return readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  }

  /** Opens the file for appending (created if need be). */
  async append(name: string): Promise<AppendFile> {
    let fd: number | undefined;
    try {
      fd = openSync(this.file(name), flags.append);
    } catch (error) {
      throw this.#error(name, error);
    }
    // A descriptor's number is reused once it is closed: past `close`, nothing may reach another file through it.
    const held = () => {
      if (fd === undefined) throw this.#error(name, new Error("closed"));
      return fd;
    };
    return {
      write: async (text) => {
        const safe = this.redactor.text(text);
        const length = Buffer.byteLength(safe);
        let written = writeSync(held(), safe);
        if (written < length) {
          const bytes = Buffer.from(safe);
          while (written < length) written += writeSync(held(), bytes, written);
        }
        return length;
      },
      size: async () => fstatSync(held()).size,
      cut: async (bytes) => ftruncateSync(held(), bytes),
      close: async () => {
        if (fd === undefined) return;
        closeSync(fd);
        fd = undefined;
      },
    };
  }

  /** Cuts the file back to `bytes`. */
  async truncate(name: string, bytes: number): Promise<void> {
    const handle = await open(this.file(name), flags.update).catch((error) => {
      throw this.#error(name, error);
    });
    try {
      await handle.truncate(bytes);
    } finally {
      await handle.close();
    }
  }

  /** Replaces the file's content at once: a new file, renamed over the old (a reader sees one or the other, whole). */
  async replace(name: string, text: string): Promise<void> {
    const temporary = await this.#temporary(name, text);
    await rename(this.file(temporary), this.file(name)).catch((error) => {
      throw this.#error(name, error);
    });
  }

  /**
   * Creates the file with `text` only if it does not exist: a new file, linked to the name (the link fails when the
   * name is taken, and the name never shows a half-written file). Answers whether it was created.
   */
  async createExclusive(name: string, text: string): Promise<boolean> {
    const temporary = await this.#temporary(name, text);
    try {
      await link(this.file(temporary), this.file(name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw this.#error(name, error);
    } finally {
      await unlink(this.file(temporary)).catch(() => {});
    }
  }

  /** Removes the file; answers whether it was there. */
  async remove(name: string): Promise<boolean> {
    try {
      await unlink(this.file(name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw this.#error(name, error);
    }
  }

  /** The names of the files in a sub-folder (`checkpointsFolder`). */
  async list(subfolder: string): Promise<string[]> {
    return readdir(this.file(subfolder)).catch((error) => {
      throw this.#error(subfolder, error);
    });
  }

  /** A new file beside `name` holding `text` (redacted), never one that existed: answers its name. */
  async #temporary(name: string, text: string): Promise<string> {
    const temporary = `${name}.${randomUUID()}.tmp`;
    const handle = await open(this.file(temporary), flags.create, 0o644).catch((error) => {
      throw this.#error(name, error);
    });
    try {
      await handle.writeFile(this.redactor.text(text));
    } finally {
      await handle.close();
    }
    return temporary;
  }

  /** `path` as a real directory (created if missing), never a link to one. */
  async #directory(path: string): Promise<void> {
    await mkdir(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw new OutputFolderError(`--out: cannot create ${path} (${errno(error)})`);
    });
    const stats = await lstat(path).catch((error) => {
      throw new OutputFolderError(`--out: cannot read ${path} (${errno(error)})`);
    });
    if (!stats.isDirectory()) throw new OutputFolderError(`--out: ${path} is not a folder (a link or a file): the export writes only into a folder of its own`);
  }

  /** Refuses entries that are not regular files (links above all); `clean` removes the temporary files of a killed run. */
  async #checkEntries(clean: boolean): Promise<void> {
    for (const folder of [this.path, join(this.path, checkpointsFolder)]) {
      for (const entry of await readdir(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory() && path === join(this.path, checkpointsFolder)) continue;
        if (!entry.isFile()) throw new OutputFolderError(`--out: ${path} is not a regular file (a link?): remove it, the export writes only regular files there`);
        if (clean && entry.name.endsWith(".tmp")) await unlink(path).catch(() => {});
      }
    }
  }

  #error(name: string, error: unknown): OutputFolderError {
    const code = errno(error);
    const why = code === "ELOOP" ? "it is a link, which the export does not follow" : code;
    return new OutputFolderError(`cannot write ${this.file(name)} (${why})`);
  }
}
