import { memoryBudgetStore } from "@content-scraper/runtime";
import { budgetRateContract } from "./budget-contract.js";

budgetRateContract("memory", memoryBudgetStore);
