import { describe, expect, it } from 'vitest';
import { planTodosToTodoList, validatePlanTodos } from './plan-todos.js';

const step = (id: string, ...dependencies: string[]) => ({ id, content: `do ${id}`, dependencies });

describe('validatePlanTodos', () => {
  it('accepts a valid dependency graph', () => {
    const result = validatePlanTodos([step('a'), step('b', 'a'), step('c', 'a', 'b')]);
    expect(result).toEqual({ ok: true, problems: [], messages: [] });
  });

  it('names unknown dependency ids', () => {
    const result = validatePlanTodos([step('a'), step('b', 'a', 'zzz')]);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([{ kind: 'unknown-dependency', id: 'b', dependency: 'zzz' }]);
    expect(result.messages[0]).toContain('"b" depends on "zzz"');
  });

  it('reports the cycle as a path', () => {
    const result = validatePlanTodos([step('a', 'c'), step('b', 'a'), step('c', 'b'), step('d')]);
    expect(result.problems).toEqual([{ kind: 'cycle', cycle: ['a', 'c', 'b', 'a'] }]);
    expect(result.messages).toEqual(['Dependency cycle: a -> c -> b -> a.']);
  });

  it('reports self-dependencies and duplicate ids', () => {
    const result = validatePlanTodos([step('a', 'a'), step('b'), step('b')]);
    expect(result.problems).toContainEqual({ kind: 'self-dependency', id: 'a' });
    expect(result.problems).toContainEqual({ kind: 'duplicate-id', id: 'b' });
  });

  it('reports two separate cycles', () => {
    const result = validatePlanTodos([step('a', 'b'), step('b', 'a'), step('x', 'y'), step('y', 'x')]);
    expect(result.problems.filter((problem) => problem.kind === 'cycle')).toHaveLength(2);
  });
});

describe('planTodosToTodoList', () => {
  it('loads every step as pending in plan order', () => {
    expect(planTodosToTodoList({ todos: [step('b'), step('a', 'b')] })).toEqual([
      { id: 'b', content: 'do b', status: 'pending' },
      { id: 'a', content: 'do a', status: 'pending' },
    ]);
  });
});
