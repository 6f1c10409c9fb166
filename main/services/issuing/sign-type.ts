export { signTypeFor } from '../../../common/rules/sign-type';
