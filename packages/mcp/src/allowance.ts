import type { ScraperBudgetState, ScraperClient } from "@content-scraper/client";

/** One budget's figures, and what it has left for new calls. */
export interface BudgetFigures extends ScraperBudgetState {
  left: number;
}

/** What is left of the allowance: the least the server's and (where sessions have one) the session's budgets have left. */
export interface Allowance {
  left: number;
  server: BudgetFigures;
  session?: BudgetFigures;
}

const figures = (state: ScraperBudgetState): BudgetFigures => ({ ...state, left: Math.max(0, state.maxCredits - state.spent - state.reserved) });

/** The clients a session calls through: the server's (its budget is the server's allowance) and the session's own. */
export interface SessionClients {
  server: ScraperClient;
  /** The server's client, or one `withBudget` derived from it for the session's own allowance. */
  session: ScraperClient;
}

/** The allowance as the clients' budgets hold it now. */
export async function allowanceOf({ server, session }: SessionClients): Promise<Allowance> {
  const [outer, inner] = await Promise.all([server.budgetState(), session === server ? undefined : session.budgetState()]);
  // The server refuses a client without a budget before any session starts.
  const serverFigures = figures(outer as ScraperBudgetState);
  if (!inner) return { left: serverFigures.left, server: serverFigures };
  const sessionFigures = figures(inner);
  return { left: Math.min(serverFigures.left, sessionFigures.left), server: serverFigures, session: sessionFigures };
}
