#!/usr/bin/env node
import "./pending-client.js";
import { run } from "./program.js";

process.exitCode = await run(process.argv);
