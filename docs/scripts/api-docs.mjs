// The packages' API reference: TypeDoc reads the public declarations of every published package (the `types` of each
// entry in its `exports`), and this module writes one Markdown page per package from TypeDoc's model, so the pages
// share the site's layout, search and links. Types generated from the descriptions are summarised, not expanded: the
// API reference pages document their shapes.
import { realpathSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { Application, Comment, ReflectionKind } from "typedoc";
import { docsDir, referenceAnchor, repoDir } from "./site.mjs";

/** Each package's entry points: `{ module: "@content-scraper/platform/oauth", file: <declarations> }`. */
export function entryPoints(pkg) {
  return Object.entries(pkg.manifest.exports ?? {})
    .filter(([, target]) => typeof target === "object" && target.types)
    .map(([subpath, target]) => ({
      module: subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
      file: realpathSync(`${repoDir}packages/${pkg.dir}/${target.types}`),
    }));
}

/** Packages before the packages that depend on them. */
function byDependency(list) {
  const names = new Set(list.map(({ name }) => name));
  const sorted = [];
  const visit = (pkg) => {
    if (sorted.includes(pkg)) return;
    for (const dependency of Object.keys(pkg.manifest.dependencies ?? {}).filter((name) => names.has(name))) visit(list.find(({ name }) => name === dependency));
    sorted.push(pkg);
  };
  list.forEach(visit);
  return sorted;
}

/**
 * TypeDoc's model of every entry point, as `[{ pkg, module, reflection }]`. Packages that others build on are read
 * first, so a symbol re-exported by several packages belongs to the one that declares it.
 */
export async function readDeclarations(list) {
  const entries = byDependency(list).flatMap((pkg) => entryPoints(pkg).map((entry) => ({ pkg, ...entry })));
  // A program of exactly the declarations, with the options the packages' consumers use.
  const workDir = await mkdtemp(`${tmpdir()}/content-scraper-api-docs-`);
  const tsconfig = `${workDir}/tsconfig.json`;
  const compilerOptions = { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2023", lib: ["ES2023", "DOM"], types: ["node"], typeRoots: [`${docsDir}node_modules/@types`], skipLibCheck: true, noEmit: true };
  await writeFile(tsconfig, JSON.stringify({ compilerOptions, files: entries.map(({ file }) => file) }));
  let project;
  try {
    const app = await Application.bootstrap({
      entryPoints: entries.map(({ file }) => file),
      entryPointStrategy: "resolve",
      tsconfig,
      skipErrorChecking: true,
      logLevel: "Error",
      readme: "none",
    });
    project = await app.convert();
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  if (!project) throw new Error("TypeDoc could not read the packages' declarations");
  const modules = entries.length > 1 ? project.children ?? [] : [project];
  return entries.map((entry) => {
    const reflection = modules.find((module) => (module.sources ?? []).some((source) => source.fullFileName === entry.file)) ?? modules[entries.indexOf(entry)];
    return { ...entry, reflection };
  });
}

const isGenerated = (reflection) => (reflection.sources ?? []).some((source) => source.fullFileName.includes("/generated/"));

/** Whether a reflection (or, for a function, one of its signatures) has a doc comment. */
export const documented = (reflection) => Boolean(reflection.hasComment() || reflection.signatures?.some((signature) => signature.hasComment()));

/** A re-export of a symbol another module declares (a reference, or what TypeDoc could not follow and calls `any`). */
const isReExport = (reflection) =>
  reflection.kind === ReflectionKind.Reference || (!(reflection.sources ?? []).length && reflection.type?.toString() === "any");

/** The exported symbols of every module that have no doc comment: `["@content-scraper/client: ScraperClientOptions"]`. */
export function undocumented(modules) {
  return modules.flatMap(({ module, reflection }) =>
    (reflection.children ?? []).filter((child) => !isReExport(child) && !documented(child)).map((child) => `${module}: ${child.name}`),
  );
}

/** The anchor of a symbol: its name in the package's main module, `oauth.discover` in a subpath module. */
function anchorOf(entry, name) {
  const sub = entry.module.slice(entry.pkg.name.length + 1);
  return sub ? `${sub}.${name}` : name;
}

/** Every exported symbol (and public class member) with the page and anchor that document it, for links. */
export function symbolLinks(modules) {
  const links = new Map();
  for (const entry of modules) {
    for (const child of entry.reflection.children ?? []) {
      if (isReExport(child)) continue;
      const anchor = anchorOf(entry, child.name);
      if (!links.has(child.name)) links.set(child.name, `${entry.pkg.apiPage}#${anchor}`);
      // A class's methods only: property names (`baseUrl`, `data`) and interface members (`error`) are too common to
      // link wherever they appear.
      if (child.kind !== ReflectionKind.Class) continue;
      for (const member of publicMembers(child)) {
        if (member.kind === ReflectionKind.Method && !links.has(member.name)) links.set(member.name, `${entry.pkg.apiPage}#${anchor}.${member.name}`);
      }
    }
  }
  return links;
}

const text = (parts) => (parts ? Comment.combineDisplayParts(parts).trim() : "");

/** A comment as Markdown: the summary, then `@deprecated`, `@example` and the other block tags it carries. */
function commentMarkdown(comment) {
  if (!comment) return "";
  const parts = [text(comment.summary)];
  for (const tag of comment.blockTags ?? []) {
    const body = text(tag.content);
    if (tag.tag === "@deprecated") parts.unshift(`**Deprecated.** ${body}`);
    else if (tag.tag === "@example") parts.push(body);
    else if (tag.tag === "@returns") parts.push(`Returns ${body}`);
    else if (!["@param", "@typeParam", "@template"].includes(tag.tag)) parts.push(`${tag.tag.slice(1)}: ${body}`);
  }
  return parts.filter(Boolean).join("\n\n");
}

const typeParameters = (list) => (list?.length ? `<${list.map((parameter) => parameter.name + (parameter.type ? ` extends ${parameter.type}` : "")).join(", ")}>` : "");

function signatureLine(name, signature) {
  const parameters = (signature.parameters ?? []).map((parameter) => {
    const optional = parameter.flags.isOptional || parameter.defaultValue !== undefined ? "?" : "";
    return `${parameter.flags.isRest ? "..." : ""}${parameter.name}${optional}: ${parameter.type}`;
  });
  return `${name}${typeParameters(signature.typeParameters)}(${parameters.join(", ")}): ${signature.type}`;
}

/** The parameters of a signature that carry a description, as a list. */
function parameterList(signature) {
  const described = (signature.parameters ?? []).filter((parameter) => parameter.hasComment());
  return described.map((parameter) => `- \`${parameter.name}\`: ${text(parameter.comment.summary)}`).join("\n");
}

/** A class's or interface's members a reader calls by name: not inherited, private, `#private`, symbol-keyed or `toJSON`. */
function publicMembers(reflection) {
  return (reflection.children ?? []).filter(
    (member) => !member.inheritedFrom && !member.flags.isPrivate && !member.flags.isProtected && !/^[#[]/.test(member.name) && member.name !== "toJSON",
  );
}

const code = (source) => `\`\`\`ts\n${source}\n\`\`\``;

/**
 * The methods of the `FocusedClient` a function returns (`focusedClient(scraper, "shortvideo")`), which TypeDoc cannot
 * list from the mapped type: one line each per platform, linked to its operation in the reference.
 */
function focusedList(reflection, { focused, referencePage }) {
  if (!/^FocusedClient</.test(String(reflection.signatures?.[0]?.type ?? ""))) return "";
  return Object.entries(focused)
    .flatMap(([platform, methods]) =>
      methods.map(({ method, summary, tag, operationId, bodyRequired }) => {
        const call = `${reflection.name}(scraper, "${platform}").${method}(${bodyRequired ? "body" : "body?"}, options?)`;
        return `- \`${call}\`: [${summary}](../../${referencePage}${referenceAnchor(tag, operationId)})`;
      }),
    )
    .join("\n");
}

/** One member of a class or interface: its signature or type, and its comment. */
function memberMarkdown(anchor, member) {
  const heading = `##### ${member.name} {#${anchor}.${member.name}}`;
  if (member.signatures?.length) {
    const name = member.kind === ReflectionKind.Constructor ? `new ${member.parent.name}` : member.name;
    return [
      heading,
      code(member.signatures.map((signature) => signatureLine(name, signature)).join("\n")),
      ...member.signatures.flatMap((signature) => [commentMarkdown(signature.comment), parameterList(signature)]),
    ];
  }
  const type = member.type ?? member.getSignature?.type;
  const optional = member.flags.isOptional ? "?" : "";
  const readonly = member.flags.isReadonly || (member.getSignature && !member.setSignature) ? "readonly " : "";
  return [heading, code(`${readonly}${member.name}${optional}: ${type}`), commentMarkdown(member.comment ?? member.getSignature?.comment)];
}

const kindWords = {
  [ReflectionKind.Class]: "class",
  [ReflectionKind.Interface]: "interface",
  [ReflectionKind.TypeAlias]: "type",
  [ReflectionKind.Function]: "function",
  [ReflectionKind.Variable]: "const",
  [ReflectionKind.Namespace]: "namespace",
  [ReflectionKind.Enum]: "enum",
};

/**
 * One exported symbol. `reference` links the reference page where a generated type's shapes are documented, at
 * `referencePage`; `focused` lists the scraper client's focused methods per platform (`focusedMethods`).
 */
function symbolMarkdown(entry, reflection, options) {
  const { reference } = options;
  const anchor = anchorOf(entry, reflection.name);
  const kind = kindWords[reflection.kind] ?? ReflectionKind[reflection.kind].toLowerCase();
  const lines = [`#### ${reflection.name} {#${anchor}}`];
  if (isGenerated(reflection) && (reflection.kind === ReflectionKind.Interface || !reflection.type)) {
    lines.push(code(`${kind} ${reflection.name}`), commentMarkdown(reflection.comment));
    lines.push(`Generated from the OpenAPI description: its members are the operations, schemas and paths of the ${reference}.`);
    return lines;
  }
  if (reflection.signatures?.length) {
    lines.push(code(reflection.signatures.map((signature) => `function ${signatureLine(reflection.name, signature)}`).join("\n")));
    for (const signature of reflection.signatures) lines.push(commentMarkdown(signature.comment), parameterList(signature));
    lines.push(focusedList(reflection, options));
    return lines;
  }
  if (reflection.kind === ReflectionKind.Class || reflection.kind === ReflectionKind.Interface) {
    const extended = (reflection.extendedTypes ?? []).map(String).join(", ");
    lines.push(code(`${kind} ${reflection.name}${typeParameters(reflection.typeParameters)}${extended ? ` extends ${extended}` : ""}`));
    lines.push(commentMarkdown(reflection.comment));
    for (const member of publicMembers(reflection)) lines.push(...memberMarkdown(anchor, member));
    return lines;
  }
  if (reflection.kind === ReflectionKind.Namespace || reflection.kind === ReflectionKind.Module) {
    lines.push(commentMarkdown(reflection.comment));
    lines.push(`Members: ${(reflection.children ?? []).map((child) => `\`${child.name}\``).join(", ")}.`);
    return lines;
  }
  const declaration = reflection.kind === ReflectionKind.TypeAlias ? `type ${reflection.name}${typeParameters(reflection.typeParameters)} = ${reflection.type}` : `const ${reflection.name}: ${reflection.type}`;
  lines.push(code(declaration), commentMarkdown(reflection.comment));
  return lines;
}

/** Where a re-exported symbol is declared: its link, if one of the packages documents it. */
function reExportLine(reflection, links) {
  const href = links.get(reflection.name);
  const name = `\`${reflection.name}\``;
  return `- ${href ? `[${name}](../../${href})` : name}`;
}

const order = [ReflectionKind.Function, ReflectionKind.Class, ReflectionKind.Variable, ReflectionKind.Interface, ReflectionKind.TypeAlias, ReflectionKind.Namespace];
const groupTitles = ["Functions", "Classes", "Constants", "Interfaces", "Types", "Namespaces"];

/** The API page of one package: every entry point, every exported symbol grouped by kind. */
export function apiMarkdown(pkg, modules, links, options) {
  const blocks = [`# ${pkg.name} API`, `Every export of \`${pkg.name}\`, from its type declarations. The [package overview](index.md) shows it in use.`];
  for (const entry of modules.filter((module) => module.pkg === pkg)) {
    const sub = entry.module.slice(pkg.name.length + 1);
    blocks.push(`## \`${entry.module}\` {#${sub ? `module.${sub}` : "module"}}`, `\`\`\`ts\nimport { … } from "${entry.module}";\n\`\`\``);
    const children = entry.reflection.children ?? [];
    order.forEach((kind, index) => {
      const group = children.filter((child) => !isReExport(child) && (child.kind === kind || (kind === ReflectionKind.Namespace && child.kind === ReflectionKind.Module)));
      if (!group.length) return;
      blocks.push(`### ${groupTitles[index]} {#${anchorOf(entry, groupTitles[index].toLowerCase())}}`);
      for (const reflection of group) blocks.push(...symbolMarkdown(entry, reflection, options));
    });
    const reExports = children.filter(isReExport);
    if (reExports.length) blocks.push(`### Re-exported {#${anchorOf(entry, "re-exported")}}`, reExports.map((reflection) => reExportLine(reflection, links)).join("\n"));
  }
  return `${blocks.filter(Boolean).join("\n\n")}\n`;
}
