import { registerMessages } from '../messages';

/** Texts of the user screens. Keys in `zh` and `en` must match; importing this module registers them (../messages.ts). */
export const user = {
  zh: {
    'profile.username': '用户名',
    'profile.role': '权限组',
    'profile.createdAt': '注册时间',
    'profile.actions': '操作',
    'profile.signOutHint': '只清除这台设备上的登录状态，不会影响你的账号。',
    'profile.adminEntry': '进入管理后台',
    'profile.myRooms': '我创建的房间',
    'profile.myRoomsEmpty': '你还没有创建房间',
    'profile.createFirst': '创建房间',
  },
  en: {
    'profile.username': 'Username',
    'profile.role': 'Role',
    'profile.createdAt': 'Joined',
    'profile.actions': 'Actions',
    'profile.signOutHint': 'Only clears the session on this device. Your account is not affected.',
    'profile.adminEntry': 'Open the admin console',
    'profile.myRooms': 'My rooms',
    'profile.myRoomsEmpty': "You haven't created a room yet",
    'profile.createFirst': 'Create a room',
  },
} as const;

registerMessages(user);
