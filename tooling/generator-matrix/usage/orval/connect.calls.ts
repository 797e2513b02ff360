// The connect description shows no operation: its client is the conventions alone, and it must still compile.
export * from "../../generated/orval/connect/index.ts";
