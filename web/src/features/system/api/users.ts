import type { KeywordQuery, PasswordReset, User, UserCreate, UserUpdate } from '@kilowatch/contract';
import type { Static } from 'typebox';
import type { PageOf } from '../../../components/crud/CrudPage.tsx';
import { http } from '../../../lib/http.ts';

export type UserQuery = Static<typeof KeywordQuery>;

export const getUsers = (query: UserQuery) => http.get<PageOf<User>>('/api/users', { ...query });

export const createUser = (input: UserCreate) => http.post<User>('/api/users', input);

export const updateUser = (id: number, input: UserUpdate) => http.put<User>(`/api/users/${id}`, input);

/** The server refuses deleting oneself or the last admin, with a message the http module shows. */
export const deleteUser = (id: number) => http.delete<void>(`/api/users/${id}`);

export const resetUserPassword = (id: number, input: PasswordReset) =>
  http.post<unknown>(`/api/users/${id}/password`, input);

/** The editable fields of a user, as PUT expects them, with some changed. */
export const toUserUpdate = (user: User, changes: Partial<UserUpdate> = {}): UserUpdate => ({
  name: user.name,
  avatar: user.avatar,
  introduction: user.introduction,
  userLevel: user.userLevel,
  disabled: user.disabled,
  roleIds: user.roleIds,
  groupIds: user.groupIds,
  ...changes,
});
