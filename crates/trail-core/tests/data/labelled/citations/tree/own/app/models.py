from dataclasses import dataclass


@dataclass
class User:
    email: str
    password_hash: str

    def check(self, password: str) -> bool:
        return bcrypt.checkpw(password.encode(), self.password_hash.encode())


BCRYPT_ROUNDS = 12


def login(email: str, password: str) -> "User":
    user = User.find_by_email(email)
    if user is None or not user.check(password):
        raise AuthError("bad credentials")
    return user
