/**
 * Helpers for the records end-to-end tests: open a view by URL, read the grid, and ask the
 * service directly (through e2e/testing/service.ts) what the truth is.
 */
import { expect, type Page } from "@playwright/test";
import { serviceCall } from "./service";

type Json = unknown;

export async function apiQuery(table: string, body: Json): Promise<{ items: Record<string, unknown>[]; count: number }> {
  const res = await serviceCall(`/v0/record/demo/${table}/query`, body);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

export async function apiUpdate(table: string, body: Json): Promise<void> {
  const res = await serviceCall(`/v0/record/demo/${table}/update`, { fixedValue: [], ...(body as object) });
  expect(res.status, await res.clone().text()).toBe(200);
}

export async function apiRecord(pk: string): Promise<Record<string, unknown>> {
  const r = await apiQuery("employees", { filter: { and: [{ key: "employee_id", operator: "equal", value: pk }] }, limit: 1 });
  return r.items[0];
}

/** Open a table view with the given search params (objects are JSON, as the router writes them). */
export async function openView(page: Page, table: string, search: Record<string, unknown> = {}): Promise<void> {
  const qs = Object.entries(search)
    .map(([k, v]) => `${k}=${encodeURIComponent(typeof v === "string" ? v : JSON.stringify(v))}`)
    .join("&");
  await page.goto(`/records/demo/${table}${qs ? `?${qs}` : ""}`);
  await expect(page.getByRole("grid")).toBeVisible();
}

/** Primary keys of the rows currently rendered (virtualized: the first screenful). */
export async function shownPks(page: Page, n: number): Promise<string[]> {
  const cells = page.locator('[role=grid] [role=row][aria-selected] [data-col="employee_id"]');
  await expect(cells.first()).toBeVisible();
  return (await cells.allTextContents()).slice(0, n);
}

export function cell(page: Page, rowIndex: number, col: string) {
  // aria-rowindex: 1 is the header row; the first data row of page 1 is 2.
  return page.locator(`[role=grid] [role=row][aria-rowindex="${rowIndex}"] [data-col="${col}"]`);
}

export const byPk = (pk: string) => ({ and: [{ key: "employee_id", operator: "equal", value: pk }] });

/** Opens the filter builder on a shown grid and adds condition 1 as "<field> is any of": the builder and its value box. */
export async function addAnyOfCondition(page: Page, field: string) {
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  const builder = page.getByRole("region", { name: "Filter builder" });
  await builder.getByRole("button", { name: "Filter: add condition" }).click();
  await builder.getByLabel("Condition 1 field").selectOption(field);
  await builder.getByLabel("Condition 1 operator").selectOption("anyOf");
  return { builder, add: builder.getByLabel("Condition 1 values: add a value") };
}
