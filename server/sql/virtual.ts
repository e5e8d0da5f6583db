/** Column types of the relations the instance computes itself (models tables, predictions). */
export type VirtualType = 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'JSON';

export interface VirtualColumn {
  name: string;
  type: VirtualType;
}
