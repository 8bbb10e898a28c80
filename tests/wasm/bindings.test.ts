// The module's declaration and guard, checked structurally against the built module:
//  - wasm/gpprobe.d.mts declares exactly the functions, classes and methods the module exports, each
//    with the argument count Embind registered (the declaration is hand-written; this keeps it true);
//  - every one of them was registered through the guard (binding_support.h), and answers a bad_alloc
//    or an exception thrown inside it with a status (out_of_memory, internal_error), never a trap;
//  - every result carries exactly the fields its declared type names, nested value objects and their
//    arrays included (so a field added to a C++ result and forgotten here, or declared and dropped from
//    the C++, fails), each of its declared type where that is a number, string, boolean, string literal,
//    typed array or string[] (null or [] allowed in a failed result);
//  - the TS tables of the core's vocabularies (ERROR_CODES, ANOMALY_STATUSES, DEFAULTS,
//    CLASSIFICATION_DEFAULTS, CERTIFY_DEFAULTS) equal the module's.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../web/src/engine/errors.ts';
import type { GpprobeModule } from '../../web/src/engine/generated/gpprobe.mjs';
import { loadModule } from '../../web/src/engine/load_module.ts';
import {
  ANOMALY_STATUSES,
  CERTIFY_DEFAULTS,
  CLASSIFICATION_DEFAULTS,
  DEFAULTS,
} from '../../web/src/engine/vocabulary.ts';

interface Declared {
  functions: Map<string, ts.NodeArray<ts.ParameterDeclaration>>;
  /** class -> method -> parameters */
  classes: Map<string, Map<string, ts.NodeArray<ts.ParameterDeclaration>>>;
  interfaces: Map<string, ts.InterfaceDeclaration>;
  /** 'function' or 'Class.method' -> its declared return type */
  returns: Map<string, ts.TypeNode>;
}

/** The module's shape as wasm/gpprobe.d.mts declares it. */
function declared(): Declared {
  const source = ts.createSourceFile(
    'gpprobe.d.mts',
    readFileSync('wasm/gpprobe.d.mts', 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  });
  const parts = interfaces
    .get('GpprobeModule')!
    .heritageClauses![0].types.map((t) => t.expression.getText(source))
    .filter((name) => name !== 'HeapAccess');
  const functions = new Map<string, ts.NodeArray<ts.ParameterDeclaration>>();
  const classes = new Map<string, Map<string, ts.NodeArray<ts.ParameterDeclaration>>>();
  const returns = new Map<string, ts.TypeNode>();
  for (const part of parts) {
    for (const member of interfaces.get(part)!.members) {
      const name = member.name!.getText(source);
      if (ts.isMethodSignature(member)) {
        functions.set(name, member.parameters);
        if (member.type) returns.set(name, member.type);
      } else if (ts.isPropertySignature(member) && member.type && ts.isConstructorTypeNode(member.type)) {
        const instance = member.type.type.getText(source);
        const methods = new Map<string, ts.NodeArray<ts.ParameterDeclaration>>();
        for (const m of interfaces.get(instance)!.members) {
          if (ts.isMethodSignature(m) && m.name.getText(source) !== 'delete') {
            methods.set(m.name.getText(source), m.parameters);
            if (m.type) returns.set(`${name}.${m.name.getText(source)}`, m.type);
          }
        }
        classes.set(name, methods);
      }
    }
  }
  return { functions, classes, interfaces, returns };
}

/** A value of the declared type, enough to pass Embind's conversions (the guard fires before the body). */
function dummy(type: ts.TypeNode | undefined, d: Declared): unknown {
  if (!type) return undefined;
  if (type.kind === ts.SyntaxKind.NumberKeyword) return 0;
  if (type.kind === ts.SyntaxKind.StringKeyword) return '';
  if (type.kind === ts.SyntaxKind.BooleanKeyword) return false;
  if (ts.isArrayTypeNode(type)) return [];
  if (ts.isUnionTypeNode(type)) return dummy(type.types[0], d);
  if (ts.isLiteralTypeNode(type)) return ts.isNumericLiteral(type.literal) ? Number(type.literal.text) : null;
  if (ts.isTypeReferenceNode(type)) {
    const name = type.typeName.getText();
    if (name === 'CoreProgress' || name === 'CoreInterval') return null;
    if (name === 'Float64Array') return new Float64Array(0);
    // A class handle (ScoredQueriesHandle's probe): a fresh, unfitted instance.
    if (d.classes.has(name)) return new (module as unknown as Record<string, new () => unknown>)[name]();
    const declaration = d.interfaces.get(name);
    if (declaration) {
      return Object.fromEntries(
        declaration.members.filter(ts.isPropertySignature).map((p) => [p.name.getText(), dummy(p.type, d)]),
      );
    }
  }
  throw new Error(`no dummy for the declared type ${type.getText()}`);
}

/** The properties interface `name` declares, its bases' included: name -> [type, optional]. */
function declaredFields(name: string, d: Declared): Map<string, { type: ts.TypeNode | undefined; optional: boolean }> {
  const declaration = d.interfaces.get(name)!;
  const fields = new Map<string, { type: ts.TypeNode | undefined; optional: boolean }>();
  for (const clause of declaration.heritageClauses ?? []) {
    for (const base of clause.types)
      for (const [k, v] of declaredFields(base.expression.getText(), d)) fields.set(k, v);
  }
  for (const member of declaration.members) {
    if (ts.isPropertySignature(member))
      fields.set(member.name.getText().replace(/^['"]|['"]$/g, ''), {
        type: member.type,
        optional: !!member.questionToken,
      });
  }
  return fields;
}

function unparenthesized(type: ts.TypeNode | undefined): ts.TypeNode | undefined {
  return type && ts.isParenthesizedTypeNode(type) ? unparenthesized(type.type) : type;
}

/** The declared interface a type names (through arrays, unions and parentheses), if any. */
function interfaceOf(type: ts.TypeNode | undefined, d: Declared): { name: string; array: boolean } | null {
  if (!type) return null;
  if (ts.isParenthesizedTypeNode(type)) return interfaceOf(type.type, d);
  if (ts.isArrayTypeNode(type)) {
    const element = interfaceOf(type.elementType, d);
    return element && !element.array ? { name: element.name, array: true } : null;
  }
  if (ts.isTypeReferenceNode(type) && d.interfaces.has(type.typeName.getText()))
    return { name: type.typeName.getText(), array: false };
  return null;
}

const TYPED_ARRAYS: Record<string, new (n: number) => unknown> = {
  Float64Array,
  Float32Array,
  Uint32Array,
  Uint8Array,
};

/** Where a value of a declared scalar, string-literal, typed-array or string[] type is not of that type ("" when
 * it is, or when the type is none of those). `failed`: the result's code is not "ok", where an unset value may be
 * null or []. */
function typeMismatch(value: unknown, type: ts.TypeNode | undefined, failed: boolean): string {
  if (!type) return '';
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  // A failed result's outputs are the C++ struct's defaults: null or [] where nothing was set.
  if (failed && (value === null || (Array.isArray(value) && value.length === 0))) return '';
  const keyword: Partial<Record<ts.SyntaxKind, string>> = {
    [ts.SyntaxKind.NumberKeyword]: 'number',
    [ts.SyntaxKind.StringKeyword]: 'string',
    [ts.SyntaxKind.BooleanKeyword]: 'boolean',
  };
  const scalar = keyword[type.kind];
  if (scalar) return typeof value === scalar ? '' : `declared ${scalar}, got ${got}`;
  if (ts.isUnionTypeNode(type) && type.types.every((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal))) {
    const names = type.types.map((t) => ((t as ts.LiteralTypeNode).literal as ts.StringLiteral).text);
    return typeof value === 'string' && names.includes(value) ? '' : `declared ${type.getText()}, got ${String(value)}`;
  }
  if (ts.isTypeReferenceNode(type) && TYPED_ARRAYS[type.typeName.getText()]) {
    const name = type.typeName.getText();
    return value instanceof TYPED_ARRAYS[name] ? '' : `declared ${name}, got ${Object.prototype.toString.call(value)}`;
  }
  if (ts.isArrayTypeNode(type) && type.elementType.kind === ts.SyntaxKind.StringKeyword) {
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? '' : `declared string[], got ${got}`;
  }
  return '';
}

/** Where `value` (a result, at `path`) differs from the fields of the declared type: missing or undeclared keys,
 * and values not of their declared type (typeMismatch). */
function fieldMismatches(
  value: unknown,
  type: ts.TypeNode | undefined,
  path: string,
  d: Declared,
  failed = (value as { code?: unknown } | null)?.code !== 'ok',
): string[] {
  const shape = interfaceOf(type, d);
  if (!shape || value === null || typeof value !== 'object') return [];
  if (shape.array) {
    if (!Array.isArray(value)) return [`${path}: an array is declared, got ${Object.prototype.toString.call(value)}`];
    return value.flatMap((element, i) =>
      fieldMismatches(element, (type as ts.ArrayTypeNode).elementType ?? type, `${path}[${i}]`, d, failed),
    );
  }
  if (ArrayBuffer.isView(value) || Array.isArray(value)) return [];
  const fields = declaredFields(shape.name, d);
  const keys = Object.keys(value);
  const out: string[] = [];
  for (const key of keys) if (!fields.has(key)) out.push(`${path}.${key}: returned, not declared in ${shape.name}`);
  for (const [key, field] of fields) {
    if (!keys.includes(key)) {
      if (!field.optional) out.push(`${path}.${key}: declared in ${shape.name}, not returned`);
      continue;
    }
    const v = (value as Record<string, unknown>)[key];
    const wrong = typeMismatch(v, unparenthesized(field.type), failed);
    if (wrong) out.push(`${path}.${key}: ${wrong}`);
    out.push(...fieldMismatches(v, field.type, `${path}.${key}`, d, failed));
  }
  return out;
}

let module: GpprobeModule;
let d: Declared;
beforeAll(async () => {
  module = await loadModule();
  d = declared();
});

/** Embind's exports: every function of the module that carries Embind's argCount. */
function exported() {
  type Embound = { argCount: number; prototype: Record<string, { argCount: number }> };
  const functions = new Map<string, number>(),
    classes = new Map<string, Map<string, number>>();
  for (const [name, value] of Object.entries(module as unknown as Record<string, unknown>)) {
    if (typeof value !== 'function' || !('argCount' in value)) continue;
    const f = value as unknown as Embound;
    const methods = Object.getOwnPropertyNames(f.prototype).filter((m) => m !== 'constructor');
    if (methods.length === 0) functions.set(name, f.argCount);
    else classes.set(name, new Map(methods.map((m) => [m, f.prototype[m].argCount])));
  }
  return { functions, classes };
}

describe('wasm/gpprobe.d.mts', () => {
  it("declares exactly what the module exports, with Embind's argument counts", () => {
    const actual = exported();
    expect([...d.functions.keys()].sort()).toEqual([...actual.functions.keys()].sort());
    expect([...d.classes.keys()].sort()).toEqual([...actual.classes.keys()].sort());
    for (const [name, parameters] of d.functions) expect(actual.functions.get(name), name).toBe(parameters.length);
    for (const [name, methods] of d.classes) {
      expect([...methods.keys()].sort(), name).toEqual([...actual.classes.get(name)!.keys()].sort());
      for (const [method, parameters] of methods)
        expect(actual.classes.get(name)!.get(method), `${name}.${method}`).toBe(parameters.length);
    }
  });
});

describe('the guard of every binding', () => {
  /** Every declared function and method, with a call of it on dummy arguments. */
  function calls(): [string, () => { code: string; message: string }][] {
    const all = module as unknown as Record<string, (...args: unknown[]) => { code: string; message: string }>;
    const out: [string, () => { code: string; message: string }][] = [];
    for (const [name, parameters] of d.functions) {
      out.push([name, () => all[name](...parameters.map((p) => dummy(p.type, d)))]);
    }
    for (const [name, methods] of d.classes) {
      const Class = all[name] as unknown as new () => Record<
        string,
        (...args: unknown[]) => { code: string; message: string }
      >;
      for (const [method, parameters] of methods) {
        out.push([
          `${name}.${method}`,
          () => {
            const instance = new Class();
            try {
              return instance[method](...parameters.map((p) => dummy(p.type, d)));
            } finally {
              (instance as unknown as { delete(): void }).delete();
            }
          },
        ]);
      }
    }
    return out;
  }

  it('covers every export: each was registered through the guard', () => {
    expect(
      calls()
        .map(([name]) => name)
        .sort(),
    ).toEqual([...module.registeredBindings().names].sort());
  });

  it.each([
    ['bad_alloc', 'out_of_memory', 'out of memory: the wasm heap cannot grow further (4 GB at most)'],
    ['exception', 'internal_error', 'internal error: injected fault'],
  ])('turns an injected %s inside any binding into a status', (fault, code, message) => {
    for (const [name, call] of calls()) {
      expect(module.armFault(fault).code).toBe('ok');
      const result = call();
      expect({ name, code: result.code, message: result.message }).toEqual({ name, code, message });
      // The fault fired in that call: the next one runs normally.
      expect(module.registeredBindings().code, name).toBe('ok');
    }
  });
});

describe('every result, field by field', () => {
  /** Every declared function and method called on dummy arguments (no fault armed): its result. */
  function results(): [string, unknown][] {
    const all = module as unknown as Record<string, (...args: unknown[]) => unknown>;
    const out: [string, unknown][] = [];
    for (const [name, parameters] of d.functions)
      out.push([name, all[name](...parameters.map((p) => dummy(p.type, d)))]);
    for (const [name, methods] of d.classes) {
      const Class = all[name] as unknown as new () => Record<string, (...args: unknown[]) => unknown>;
      for (const [method, parameters] of methods) {
        const instance = new Class();
        try {
          out.push([`${name}.${method}`, instance[method](...parameters.map((p) => dummy(p.type, d)))]);
        } finally {
          (instance as unknown as { delete(): void }).delete();
        }
      }
    }
    return out;
  }

  it('has exactly the fields wasm/gpprobe.d.mts declares for it', () => {
    const checked: string[] = [];
    const mismatches = results().flatMap(([name, result]) => {
      const type = d.returns.get(name);
      if (interfaceOf(type, d)) checked.push(name);
      return fieldMismatches(result, type, name, d);
    });
    expect(mismatches).toEqual([]);
    // Every call with a declared result type was looked at (a status at least: code and message).
    expect(checked.length).toBe([...d.returns.values()].filter((t) => interfaceOf(t, d)).length);
  });

  it('notices a field the declaration lacks, and one the module does not return', () => {
    const type = d.returns.get('vocabulary')!;
    const v = module.vocabulary() as unknown as Record<string, unknown>;
    expect(fieldMismatches({ ...v, addedInCpp: 1 }, type, 'vocabulary', d)).toEqual([
      'vocabulary.addedInCpp: returned, not declared in Vocabulary',
    ]);
    const { message: _dropped, ...rest } = v;
    expect(fieldMismatches(rest, type, 'vocabulary', d)).toEqual([
      'vocabulary.message: declared in Vocabulary, not returned',
    ]);
    expect(fieldMismatches({ ...v, threads: '1' }, type, 'vocabulary', d)).toEqual([
      'vocabulary.threads: declared number, got string',
    ]);
  });
});

describe("the TS tables of the core's vocabularies", () => {
  it("equal the module's", () => {
    const v = module.vocabulary();
    expect(v.code).toBe('ok');
    expect([...v.statusCodes.filter((c) => c !== 'ok'), 'disposed']).toEqual([...ERROR_CODES]);
    expect(v.anomalyStatuses).toEqual([...ANOMALY_STATUSES]);
    expect(v.defaults).toEqual(DEFAULTS);
    const c = module.classificationVocabulary();
    expect(c.code).toBe('ok');
    expect(c.defaults).toEqual(CLASSIFICATION_DEFAULTS);
    const { code, message: _message, ...certify } = module.certifyDefaults();
    expect(code).toBe('ok');
    expect(certify).toEqual(CERTIFY_DEFAULTS);
  });
});

describe('threads', () => {
  it('stay 1 in the single-threaded module whatever is asked, and a negative count is refused', () => {
    expect(module.vocabulary().threads).toBe(1);
    expect(module.setThreads(4).code).toBe('ok');
    expect(module.vocabulary().threads).toBe(1);
    expect(module.setThreads(-1)).toEqual({
      code: 'invalid_argument',
      message: 'threads must be 0 (the default) or more, got -1',
    });
    expect(module.setThreads(0).code).toBe('ok');
  });
});
