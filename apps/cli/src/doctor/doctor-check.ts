/** One line of `cairn doctor`: what was checked, how it went and, when it is not ok, what to do. */
export interface DoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  message: string;
  fix?: string;
}

export const ok = (name: string, message: string): DoctorCheck => ({ name, status: 'ok', message });
export const warn = (name: string, message: string, fix: string): DoctorCheck => ({ name, status: 'warn', message, fix });
export const fail = (name: string, message: string, fix: string): DoctorCheck => ({ name, status: 'fail', message, fix });
