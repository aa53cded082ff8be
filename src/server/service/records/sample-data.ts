/**
 * The sample data of decisions §2, generated from a fixed PRNG seed so every fresh data
 * directory (and the benchmark's million-row table) holds the same Records.
 */
import type { RecordRow } from "../../../shared/records";
import type { TableDef } from "./registry";

/** mulberry32: tiny, fast, deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)];
const int = (rand: () => number, lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

export const employeesTable: TableDef = {
  databaseId: "demo",
  slug: "employees",
  primaryKey: "employee_id",
  fields: [
    { key: "employee_id", type: "text", nullable: false },
    { key: "full_name", type: "text", nullable: true },
    { key: "job_title", type: "text", nullable: true },
    { key: "department", type: "text", nullable: true },
    { key: "business_unit", type: "text", nullable: true },
    { key: "gender", type: "text", nullable: true },
    { key: "ethnicity", type: "text", nullable: true },
    { key: "age", type: "number", nullable: true },
    { key: "hire_date", type: "date", nullable: true },
    { key: "annual_salary", type: "number", nullable: true },
    { key: "bonus", type: "number", nullable: true },
    { key: "country", type: "text", nullable: true },
    { key: "city", type: "text", nullable: true },
    { key: "exit_date", type: "date", nullable: true },
  ],
  indexes: ["department", "job_title", "country", "city", "age", "hire_date", "annual_salary", "exit_date"],
};

export const departmentsTable: TableDef = {
  databaseId: "demo",
  slug: "departments",
  primaryKey: "department",
  fields: [
    { key: "department", type: "text", nullable: false },
    { key: "head", type: "text", nullable: true },
    { key: "budget", type: "number", nullable: true },
    { key: "location", type: "text", nullable: true },
  ],
  indexes: ["location"],
};

export const catalogTable: TableDef = {
  databaseId: "demo",
  slug: "catalog",
  primaryKey: "sku",
  fields: [
    { key: "sku", type: "text", nullable: false },
    { key: "name", type: "text", nullable: true },
    { key: "price", type: "number", nullable: true },
    { key: "in_stock", type: "boolean", nullable: true },
    { key: "added_at", type: "datetime", nullable: true },
    { key: "specs", type: "json", nullable: true },
    { key: "image", type: "image", nullable: true, bucket: "public-assets" },
    { key: "manual", type: "attachment", nullable: true, bucket: "team-files" },
  ],
  indexes: ["name", "price"],
};

const firstNames = ["Emily", "James", "Sofia", "Liam", "Zoë", "Mateo", "Aiko", "Noah", "Chloé", "Wei", "Amara", "Lucas",
  "Isabella", "Ethan", "Mia", "Hiroshi", "Olivia", "José", "Fatima", "Elijah", "Ava", "Mei", "Gabriel", "Leah", "Ömer",
  "Grace", "Santiago", "Nora", "Ravi", "Camila"] as const;
const lastNames = ["Smith", "Chen", "García", "Johnson", "Nguyen", "Silva", "Kim", "Brown", "Wang", "Müller", "Lopez",
  "Davis", "Zhang", "Martins", "Wilson", "Li", "Anderson", "Costa", "Taylor", "Ng", "Thomas", "Rocha", "Moore", "Liu",
  "Jackson", "Pereira", "White", "Huang", "Harris", "Souza"] as const;

/** department → business unit and job titles (repeated values on purpose). */
const departments = {
  Engineering: ["Research & Development", ["Software Engineer", "Senior Software Engineer", "Engineering Manager", "QA Engineer"]],
  Sales: ["Corporate", ["Account Executive", "Sales Manager", "Sales Representative"]],
  Marketing: ["Corporate", ["Marketing Specialist", "Content Strategist", "Marketing Manager"]],
  Finance: ["Corporate", ["Financial Analyst", "Accountant", "Controller"]],
  "Human Resources": ["Corporate", ["HR Generalist", "Recruiter", "HR Manager"]],
  IT: ["Specialty Products", ["IT Coordinator", "Systems Administrator", "Network Engineer"]],
  Operations: ["Manufacturing", ["Operations Analyst", "Plant Manager", "Logistics Coordinator"]],
  Legal: ["Corporate", ["Counsel", "Paralegal"]],
  "Customer Support": ["Specialty Products", ["Support Specialist", "Support Team Lead"]],
} as const;
const departmentNames = Object.keys(departments) as (keyof typeof departments)[];

const places = {
  "United States": ["Seattle", "Austin", "Chicago", "Miami", "Phoenix", "Columbus"],
  China: ["Shanghai", "Beijing", "Chengdu", "Chongqing"],
  Brazil: ["São Paulo", "Rio de Janeiro", "Manaus"],
} as const;
const countries = Object.keys(places) as (keyof typeof places)[];

const genders = ["Female", "Male", "Female", "Male", "Non-binary"] as const;
const ethnicities = ["Asian", "Black", "Caucasian", "Latino", "Other"] as const;

function isoDate(days: number): string {
  return new Date(Date.UTC(1995, 0, 1) + days * 86_400_000).toISOString().slice(0, 10);
}

/** `count` employees; ids are E + zero-padded number (at least 5 digits: E00001 …). */
export function* generateEmployees(count: number, seed = 20240501): Generator<RecordRow> {
  const rand = prng(seed);
  const width = Math.max(5, String(count).length);
  const span = 30 * 365;
  for (let i = 1; i <= count; i++) {
    const department = pick(rand, departmentNames);
    const [businessUnit, titles] = departments[department];
    const country = pick(rand, countries);
    const hireDays = int(rand, 0, span - 400);
    const salary = int(rand, 40, 250) * 1000 + int(rand, 0, 9) * 100;
    const exits = rand() < 0.15;
    yield {
      employee_id: `E${String(i).padStart(width, "0")}`,
      full_name: `${pick(rand, firstNames)} ${pick(rand, lastNames)}`,
      job_title: pick(rand, titles),
      department,
      business_unit: businessUnit,
      gender: pick(rand, genders),
      ethnicity: pick(rand, ethnicities),
      age: int(rand, 22, 65),
      hire_date: isoDate(hireDays),
      annual_salary: salary,
      bonus: rand() < 0.4 ? 0 : Math.round((salary * int(rand, 2, 30)) / 100),
      country,
      city: pick(rand, places[country]),
      exit_date: exits ? isoDate(hireDays + int(rand, 30, 365 * 5)) : null,
    };
  }
}

export function generateDepartments(seed = 7): RecordRow[] {
  const rand = prng(seed);
  return departmentNames.map((department) => {
    const country = pick(rand, countries);
    return {
      department,
      head: `${pick(rand, firstNames)} ${pick(rand, lastNames)}`,
      budget: int(rand, 5, 80) * 50_000,
      location: pick(rand, places[country]),
    };
  });
}

/** Image keys the storage service seeds into bucket public-assets (one row each, a few reused). */
export const catalogImages = [
  "catalog/lamp.png",
  "catalog/chair.png",
  "catalog/desk.jpg",
  "catalog/shelf.jpg",
  "catalog/plant.png",
  "catalog/clock.jpg",
] as const;

export function generateCatalog(): RecordRow[] {
  const items: [string, number, boolean, RecordRow][] = [
    ["Brass desk lamp", 89.5, true, { material: "brass", watts: 40, dimmable: true }],
    ["Oak lounge chair", 349, true, { material: "oak", seatHeightCm: 42 }],
    ["Standing desk", 599.99, false, { widthCm: 160, motors: 2, heights: [72, 120] }],
    ["Wall shelf", 120, true, { material: "pine", shelves: 3 }],
    ["Monstera plant", 35, true, { potCm: 21, light: "indirect" }],
    ["Wall clock", 45.25, false, { diameterCm: 30, silent: true }],
    ["Desk lamp, black", 79, true, { material: "steel", watts: 25, dimmable: false }],
    ["Reading chair", 289, false, { material: "walnut", seatHeightCm: 44 }],
  ];
  return items.map(([name, price, inStock, specs], i) => ({
    sku: `SKU-${String(i + 1).padStart(3, "0")}`,
    name,
    price,
    in_stock: inStock,
    added_at: new Date(Date.UTC(2024, i, 3 + i, 9 + i, 30)).toISOString(),
    specs,
    image: catalogImages[i % catalogImages.length],
    manual: i % 3 === 2 ? null : "docs/manual.pdf",
  }));
}
