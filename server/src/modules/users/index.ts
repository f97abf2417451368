export {
  countUsers,
  findUserById,
  findUserByUsername,
  insertUserIfAbsent,
  type NewUser,
  type User,
  updatePasswordHash,
} from './repository.ts';
