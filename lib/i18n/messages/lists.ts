import { registerMessages } from '../messages';

/**
 * Texts of the server-paged list controls (components/common/list-toolbar.tsx): sorting, order and
 * the search scope, shared by the admin console and the user center. Importing this module
 * registers them (../messages.ts).
 */
export const lists = {
  zh: {
    'list.order': '顺序',
    'list.order.asc': '升序',
    'list.order.desc': '降序',
    'list.sort': '排序',
    'list.sort.name': '按名称',
    'list.sort.createdAt': '按创建时间',
    'list.scope': '搜索范围',
  },
  en: {
    'list.order': 'Order',
    'list.order.asc': 'Ascending',
    'list.order.desc': 'Descending',
    'list.sort': 'Sort',
    'list.sort.name': 'By name',
    'list.sort.createdAt': 'By creation date',
    'list.scope': 'Search in',
  },
} as const;

registerMessages(lists);
